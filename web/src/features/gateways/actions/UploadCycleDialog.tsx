import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Flex, InputNumber, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { UPLOAD_CYCLE, setUploadCycle, validCycle } from './api';
import { invalidateGateways } from './invalidate';

/**
 * Upload cycle: how often the gateway sends its readings. The gateway is sent the new cycle and
 * answers; the detail keeps showing the cycle the gateway reports, which changes once it has
 * taken the new one.
 */
export function UploadCycleDialog({
  sn,
  plantId,
  reported,
  open,
  onClose,
}: {
  sn: string;
  plantId: number | null;
  /** The cycle the gateway last reported (seconds). */
  reported: number | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [value, setValue] = useState<number | null>(reported);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const valid = validCycle(value);
  const submit = () => {
    if (!validCycle(value)) return;
    setBusy(true);
    setError(null);
    setUploadCycle(sn, value)
      .then((c) => {
        if (c.status === 'succeeded') {
          message.success(t('gatewayActions.cycleApplied'));
          void invalidateGateways(queryClient, plantId);
          onClose();
        } else
          setError(
            t('gatewayActions.cycleFailed', {
              status: t(`gatewayActions.itemStatus.${c.status}`, { defaultValue: c.status }),
            }),
          );
      })
      .catch((e: unknown) =>
        setError(isApiError(e) ? e.message : t('gatewayActions.requestFailed')),
      )
      .finally(() => setBusy(false));
  };
  return (
    <GuardedModal
      open={open}
      title={t('gatewayActions.cycleTitle', { sn })}
      onCancel={onClose}
      onOk={submit}
      okButtonProps={{
        loading: busy,
        disabled: !valid || value === reported,
        id: 'upload-cycle-ok',
      }}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        {error && <Alert type="error" showIcon title={error} data-testid="upload-cycle-error" />}
        <Typography.Text type="secondary" data-testid="upload-cycle-reported">
          {reported === null
            ? t('gatewayActions.cycleNotReported')
            : t('gatewayActions.cycleReported', { value: reported })}
        </Typography.Text>
        <InputNumber<number>
          min={UPLOAD_CYCLE.min}
          max={UPLOAD_CYCLE.max}
          precision={0}
          value={value}
          onChange={setValue}
          suffix={t('gatewayActions.cycleUnit')}
          aria-label={t('gatewayActions.cycle')}
          status={value !== null && !valid ? 'error' : undefined}
          data-testid="upload-cycle-input"
          style={{ width: 200 }}
        />
        <Typography.Text type={value !== null && !valid ? 'danger' : 'secondary'}>
          {t('gatewayActions.cycleRange', UPLOAD_CYCLE)}
        </Typography.Text>
      </Flex>
    </GuardedModal>
  );
}
