import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { protocolsQuery, updateProtocol } from './api';
import { invalidateGateways } from './invalidate';

/** Change protocol: administrators pick from the configs, others type the code. */
export function ProtocolDialog({
  sn,
  plantId,
  current,
  open,
  onClose,
}: {
  sn: string;
  plantId: number | null;
  current: string;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const protocols = useQuery({ ...protocolsQuery, enabled: open });
  const [value, setValue] = useState(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    setBusy(true);
    setError(null);
    updateProtocol(sn, value.trim())
      .then(() => {
        message.success(t('gatewayActions.protocolChanged'));
        void invalidateGateways(queryClient, plantId);
        onClose();
      })
      .catch((e: unknown) =>
        setError(isApiError(e) ? e.message : t('gatewayActions.requestFailed')),
      )
      .finally(() => setBusy(false));
  };
  return (
    <GuardedModal
      open={open}
      title={t('gatewayActions.protocolTitle', { sn })}
      onCancel={onClose}
      onOk={submit}
      okButtonProps={{ loading: busy, disabled: !value.trim() || value.trim() === current }}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      {protocols.data ? (
        <Select
          showSearch
          style={{ width: '100%' }}
          value={value || undefined}
          onChange={setValue}
          aria-label={t('gatewayActions.protocol')}
          options={protocols.data.map((p) => ({ value: p.code, label: `${p.name} (${p.code})` }))}
          loading={protocols.isLoading}
        />
      ) : (
        <Input
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-label={t('gatewayActions.protocol')}
          placeholder={t('gatewayActions.protocolCode')}
        />
      )}
    </GuardedModal>
  );
}
