import { useQuery } from '@tanstack/react-query';
import { Button, Card, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Problem } from '@/shared/ui/Problem';
import { deviceGatewayQuery } from './api';
import { GatewayList } from './GatewayList';
import { GatewayMessages } from './GatewayMessages';

/**
 * Logging / Communication log: what each gateway sent and received. `?sn=` a gateway shows its
 * messages; `?device=` a device (from its detail page) first finds the gateway it reports
 * through; neither shows the gateways the caller may read.
 */
export default function CommLogPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const search = new URLSearchParams(location.search);
  const sn = search.get('sn')?.trim() ?? '';
  const device = search.get('device')?.trim() ?? '';
  // the gateway list's filters, to come back to them from a gateway's messages
  const [listSearch, setListSearch] = useState('');

  if (device && !sn) return <DeviceGateway sn={device} />;
  if (sn) {
    return <GatewayMessages onBack={() => void navigate({ search: listSearch })} />;
  }
  return (
    <GatewayList
      onOpen={(gateway) => {
        setListSearch(location.search);
        void navigate({ search: new URLSearchParams({ sn: gateway }).toString() });
      }}
    />
  );
}

/** Finds the gateway a device reports through, then shows that gateway's messages. */
function DeviceGateway({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const gateway = useQuery(deviceGatewayQuery(sn));
  const found = gateway.data?.sn;
  useEffect(() => {
    if (found)
      void navigate({ search: new URLSearchParams({ sn: found }).toString() }, { replace: true });
  }, [found, navigate]);
  return (
    <Card>
      {gateway.isError ? (
        <Problem
          title={t('commLog.noDeviceGateway', { sn })}
          testId="commlog-no-gateway"
          extra={
            <Button onClick={() => void navigate({ search: '' })}>
              {t('commLog.allGateways')}
            </Button>
          }
        />
      ) : (
        <Skeleton active />
      )}
    </Card>
  );
}
