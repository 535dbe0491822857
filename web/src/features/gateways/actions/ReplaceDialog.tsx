import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { replaceGateway } from './api';
import { invalidateGateways } from './invalidate';

/** Replace: the plant gets the new gateway (SN and key) and keeps its devices and history. */
export function ReplaceDialog({
  sn,
  open,
  onClose,
}: {
  sn: string;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ newSn: string; key: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = ({ newSn, key }: { newSn: string; key: string }) => {
    setBusy(true);
    setError(null);
    replaceGateway(sn, newSn, key)
      .then((r) => {
        message.success(t('gatewayActions.replaced', { sn: r.newSn, count: r.devices }));
        void invalidateGateways(queryClient, r.plantId);
        onClose();
        void navigate(`/device/gateway/${encodeURIComponent(r.newSn)}`);
      })
      .catch((e: unknown) =>
        setError(isApiError(e) ? e.message : t('gatewayActions.requestFailed')),
      )
      .finally(() => setBusy(false));
  };
  return (
    <GuardedModal
      open={open}
      title={t('gatewayActions.replaceTitle', { sn })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('gatewayActions.replace')}
      okButtonProps={{ loading: busy, danger: true, id: 'replace-ok' }}
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        title={t('gatewayActions.replaceHelp')}
        style={{ marginBottom: 16 }}
      />
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="newSn"
          label={t('gatewayActions.newSn')}
          rules={[
            { required: true, message: t('gatewayActions.newSnRequired') },
            { pattern: /^[A-Za-z0-9-]{6,32}$/, message: t('gatewayActions.snRule') },
          ]}
        >
          <Input data-testid="replace-sn" />
        </Form.Item>
        <Form.Item
          name="key"
          label={t('gatewayActions.key')}
          rules={[
            { required: true, message: t('gatewayActions.keyRequired') },
            { pattern: /^[\x21-\x7e]{4,32}$/, message: t('gatewayActions.keyRule') },
          ]}
        >
          <Input data-testid="replace-key" />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
