import { EyeInvisibleOutlined, EyeOutlined, KeyOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { gatewayKeys } from '@/shared/api/keys';
import { isApiError } from '@/shared/http';
import { GuardedPopconfirm } from '@/shared/ui/guarded';
import { rotateGatewayKey, type GatewayDetail } from './api';

const HIDDEN = '••••••••';

/** The registration key of a gateway the caller may edit: hidden until asked for, copyable,
 * and rotated on demand (the gateway is sent its new key; the old one stops working once the
 * gateway has taken it). */
export function GatewayKey({ gateway }: { gateway: GatewayDetail }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = gateway.key ?? '';

  const rotate = () => {
    setBusy(true);
    setError(null);
    rotateGatewayKey(gateway.sn)
      .then((r) => {
        if (r.status === 'succeeded') message.success(t('gatewayKey.rotated'));
        else message.warning(t('gatewayKey.pending'));
        setShown(true);
        return queryClient.invalidateQueries({ queryKey: gatewayKeys.details });
      })
      .catch((e: unknown) => setError(isApiError(e) ? e.message : t('gatewayKey.failed')))
      .finally(() => setBusy(false));
  };

  return (
    <Flex vertical gap={4} data-testid="gateway-key">
      <Flex gap={8} align="center" wrap>
        <Typography.Text
          code
          copyable={shown ? { text: key } : false}
          data-testid="gateway-key-value"
        >
          {shown ? key : HIDDEN}
        </Typography.Text>
        <Tooltip title={shown ? t('gatewayKey.hide') : t('gatewayKey.show')}>
          <Button
            size="small"
            type="text"
            aria-label={shown ? t('gatewayKey.hide') : t('gatewayKey.show')}
            icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
            onClick={() => setShown((s) => !s)}
            data-testid="gateway-key-toggle"
          />
        </Tooltip>
        <GuardedPopconfirm
          title={t('gatewayKey.confirmTitle')}
          description={t('gatewayKey.confirm')}
          okText={t('gatewayKey.rotate')}
          cancelText={t('common.cancel')}
          onConfirm={rotate}
          okButtonProps={{ id: 'gateway-key-rotate-ok' }}
        >
          <Button
            size="small"
            icon={<KeyOutlined />}
            loading={busy}
            data-testid="gateway-key-rotate"
          >
            {t('gatewayKey.rotate')}
          </Button>
        </GuardedPopconfirm>
      </Flex>
      {gateway.keyPending && (
        <Typography.Text type="warning">{t('gatewayKey.pendingNote')}</Typography.Text>
      )}
      {gateway.keyChangedAt && (
        <Typography.Text type="secondary">
          {t('gatewayKey.changedAt', {
            when: dayjs(gateway.keyChangedAt).format('YYYY-MM-DD HH:mm'),
          })}
        </Typography.Text>
      )}
      {error && <Alert type="error" showIcon title={error} />}
    </Flex>
  );
}
