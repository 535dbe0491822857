import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SubmitButton } from '../ui/guarded';
import { ErrorCode, isApiError } from '@/shared/http';
import { firmwareQuery, startUpgrades, type BatchStart, type UpgradeTarget } from './api';
import { BatchView } from './BatchView';
import { splitSns } from './progress';

interface Props {
  open: boolean;
  onClose: () => void;
  target: UpgradeTarget;
  /** Upgrade these SNs; without it the user types them. */
  fixed?: string[];
  /** SNs to start the typed list with (a list's selection). */
  preset?: string[];
}

/**
 * Upgrading firmware: choose the firmware enabled for the devices' type, start, then watch the
 * batch to its end (a live bar for the batch and each device, cancel where the device supports
 * it, totals with the reasons of failures).
 */
export function UpgradeDialog({ open, onClose, target, fixed, preset }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState((preset ?? []).join('\n'));
  const [firmId, setFirmId] = useState<number | null>(null);
  const [start, setStart] = useState<BatchStart | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // devices already on the chosen version (4001): a warning, with "upgrade anyway"
  const [current, setCurrent] = useState<string[]>([]);
  const sns = fixed ?? splitSns(text);
  const firmware = useQuery({
    ...firmwareQuery(target, sns[0] ?? ''),
    enabled: open && (target === 'gateway' || sns.length > 0),
  });

  const close = () => {
    setStart(null);
    setError(null);
    setCurrent([]);
    setText('');
    setFirmId(null);
    onClose();
  };
  const run = (force = false) => {
    if (firmId === null) return;
    const only = force ? current : sns;
    setBusy(true);
    setError(null);
    setCurrent([]);
    startUpgrades(target, only, firmId, force)
      .then((started) => {
        setStart(started);
        setCurrent(
          started.results.filter((r) => r.code === ErrorCode.FirmwareCurrent).map((r) => r.sn),
        );
      })
      .catch((e: unknown) => {
        if (isApiError(e, ErrorCode.FirmwareCurrent)) setCurrent(only);
        else setError(isApiError(e) ? e.message : t('upgrades.requestFailed'));
      })
      .finally(() => setBusy(false));
  };
  const upToDate = current.length > 0 && (
    <Alert
      type="warning"
      showIcon
      title={t('upgrades.upToDate')}
      description={`${t('upgrades.upToDateText')} ${current.join(', ')}`}
      style={{ marginBottom: 12 }}
      data-testid="upgrade-up-to-date"
      action={
        <SubmitButton
          size="small"
          loading={busy}
          onClick={() => run(true)}
          data-testid="upgrade-force"
        >
          {t('upgrades.upgradeAnyway')}
        </SubmitButton>
      }
    />
  );

  const footer = start ? (
    <Button type="primary" onClick={close} data-testid="upgrade-close">
      {t('upgrades.close')}
    </Button>
  ) : (
    <Space>
      <Button onClick={close}>{t('common.cancel')}</Button>
      <SubmitButton
        type="primary"
        loading={busy}
        disabled={sns.length === 0 || firmId === null}
        onClick={() => run()}
        data-testid="upgrade-start"
      >
        {t('upgrades.startN', { count: sns.length })}
      </SubmitButton>
    </Space>
  );

  const options = (firmware.data ?? []).map((f) => ({
    value: f.id,
    label: `${f.version} · ${f.fileName}`,
  }));

  return (
    <Modal
      open={open}
      title={t(target === 'gateway' ? 'upgrades.gatewayTitle' : 'upgrades.inverterTitle')}
      onCancel={close}
      footer={footer}
      width={760}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      {upToDate}
      {start ? (
        <BatchView start={start} target={target} />
      ) : (
        <Form layout="vertical">
          {fixed ? (
            <Typography.Paragraph>
              {t('upgrades.devices', { sns: fixed.join(', ') })}
            </Typography.Paragraph>
          ) : (
            <Form.Item label={t('upgrades.sns')} help={t('upgrades.snsHelp')}>
              <Input.TextArea
                rows={4}
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder={t('upgrades.snsPlaceholder')}
                aria-label={t('upgrades.sns')}
                data-testid="upgrade-sns"
              />
            </Form.Item>
          )}
          <Form.Item label={t('upgrades.firmware')}>
            {firmware.isError ? (
              <Alert type="error" showIcon title={t('upgrades.firmwareFailed')} />
            ) : (
              <Select
                aria-label={t('upgrades.firmware')}
                value={firmId ?? undefined}
                onChange={(v: number) => setFirmId(v)}
                loading={firmware.isFetching}
                options={options}
                placeholder={t('upgrades.chooseFirmware')}
                notFoundContent={
                  <Empty
                    image={Empty.PRESENTED_IMAGE_SIMPLE}
                    description={t('upgrades.noFirmware')}
                  />
                }
                data-testid="upgrade-firmware"
              />
            )}
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
