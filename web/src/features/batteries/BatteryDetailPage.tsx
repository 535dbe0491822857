import { DeleteOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Tag } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { DeviceLoadState, DeviceTitle } from '@/shared/devices/DetailParts';
import { DeleteDeviceDialog } from '@/shared/devices/dialogs';
import { shownStatus } from '@/shared/devices/live';
import '@/shared/devices/monitor.css';
import { useCan } from '@/shared/permissions';
import { BATTERY, batteryInfoQuery } from './api';
import './batteries.css';
import { DayBlock } from './detail/DayBlock';
import { InfoBlock } from './detail/InfoBlock';
import { PacksBlock } from './detail/PacksBlock';
import { RealtimeBlock } from './detail/RealtimeBlock';

// Health loads after the page's own blocks: its charts and texts are read by fewer visitors.
const HealthBlock = lazy(() => import('./health/HealthBlock'));

/** device/battery/:sn: one battery stack, its cells, packs, day curve and health. */
export default function BatteryDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sn = decodeURIComponent(useParams().sn ?? '');
  const info = useQuery(batteryInfoQuery(sn));
  const canDelete = useCan('battery.delete') && info.data?.deletable === true;
  const [deleting, setDeleting] = useState(false);
  if (!info.isSuccess) return <DeviceLoadState kind={BATTERY} query={info} />;
  const b = info.data;
  return (
    <Flex vertical gap={16} className="monitor-page">
      <Card
        title={
          <DeviceTitle
            kind={BATTERY}
            sn={b.sn}
            alias={b.alias}
            status={shownStatus(b.status, b.stale)}
          >
            {!b.master && <Tag>{t('batteries.slaveOf', { sn: b.masterSn })}</Tag>}
          </DeviceTitle>
        }
        extra={
          canDelete && (
            <Button danger icon={<DeleteOutlined />} onClick={() => setDeleting(true)}>
              {t('batteries.delete.button')}
            </Button>
          )
        }
      >
        <InfoBlock b={b} />
      </Card>
      <RealtimeBlock sn={b.sn} />
      {b.master && <PacksBlock sn={b.sn} />}
      <DayBlock sn={b.sn} zone={b.timezone ?? 'UTC'} />
      <Suspense fallback={<Card loading />}>
        <HealthBlock sn={b.sn} zone={b.timezone ?? 'UTC'} />
      </Suspense>
      <DeleteDeviceDialog
        kind={BATTERY}
        sn={b.sn}
        open={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate('/device/battery')}
      />
    </Flex>
  );
}
