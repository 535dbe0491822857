import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Empty,
  Form,
  Input,
  Modal,
  Progress,
  Select,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SubmitButton } from '../ui/guarded';
import { MISSING } from '@/shared/format/number';
import { gatewayKeys, inverterKeys } from '@/shared/api/keys';
import { ErrorCode, isApiError } from '@/shared/http';
import { outcomeColor } from '@/shared/ui/status';
import {
  batchQuery,
  cancelUpgrade,
  firmwareQuery,
  startUpgrades,
  type BatchStart,
  type UpgradeTarget,
} from './api';
import {
  progressStatus,
  reasonOf,
  rowsOf,
  splitSns,
  stateLabel,
  summary,
  type Row,
} from './progress';

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
 * The live progress of a started batch: one bar for the batch, one per device, totals. A
 * gateway upgrades one device at a time, so devices behind one gateway wait "Queued (n)", n
 * their place in its queue, until their turn; a queued one can leave the queue.
 */
export function BatchView({ start, target }: { start: BatchStart; target: UpgradeTarget }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const batch = useQuery(batchQuery(start.sent > 0 ? start.batchId : null));
  const [cancelling, setCancelling] = useState<string | null>(null);
  const rows = rowsOf(start.results, batch.data?.infos);
  const s = summary(start.sent > 0 ? batch.data?.totals : undefined, start.refused);
  const done = start.sent === 0 || s.done;

  useEffect(() => {
    if (done)
      void queryClient.invalidateQueries({
        queryKey: target === 'gateway' ? gatewayKeys.all : inverterKeys.all,
      });
  }, [done, queryClient, target]);

  const cancel = (sn: string, queued: boolean) => {
    setCancelling(sn);
    cancelUpgrade(sn)
      .then(() => {
        message.info(t(queued ? 'upgrades.unqueued' : 'upgrades.cancelRequested', { sn }));
        return batch.refetch();
      })
      .catch((e: unknown) => message.error(isApiError(e) ? e.message : t('upgrades.requestFailed')))
      .finally(() => setCancelling(null));
  };

  return (
    <div data-testid="upgrade-progress">
      {batch.isError && (
        <Alert
          type="warning"
          showIcon
          title={t('upgrades.progressFailed')}
          style={{ marginBottom: 12 }}
        />
      )}
      <Progress
        percent={done ? 100 : s.progress}
        status={done ? (s.failed > 0 ? 'exception' : 'success') : 'active'}
        aria-label={t('upgrades.batchProgress')}
        data-testid="batch-progress"
      />
      <Space
        size="large"
        wrap
        style={{ margin: '12px 0' }}
        data-testid="upgrade-totals"
        data-done={done ? 'yes' : 'no'}
      >
        <Statistic title={t('upgrades.total')} value={s.total} />
        <Statistic
          title={t('upgrades.succeeded')}
          value={s.succeeded}
          styles={{ content: { color: '#389e0d' } }}
        />
        <Statistic
          title={t('upgrades.failed')}
          value={s.failed}
          styles={{ content: s.failed ? { color: '#cf1322' } : undefined }}
        />
        <Statistic title={t('upgrades.cancelled')} value={s.cancelled} />
        <Statistic
          title={t('upgrades.queued')}
          value={s.queued}
          data-testid="upgrade-queued"
          styles={{ content: s.queued ? { color: '#d48806' } : undefined }}
        />
        <Statistic title={t('upgrades.running')} value={start.sent > 0 ? s.running : 0} />
      </Space>
      <Table<Row>
        rowKey="sn"
        size="small"
        pagination={false}
        dataSource={rows}
        columns={[
          { key: 'sn', title: t('upgrades.sn'), render: (_, r) => r.sn },
          {
            key: 'state',
            title: t('upgrades.state'),
            render: (_, r) =>
              r.upgrade ? (
                <Tag
                  color={outcomeColor(r.upgrade.state)}
                  data-testid="upgrade-state"
                  data-sn={r.sn}
                  data-state={r.upgrade.state}
                  data-position={r.upgrade.queuePosition ?? undefined}
                >
                  {t(...stateLabel(r.upgrade))}
                </Tag>
              ) : (
                <Tag color="error" data-testid="upgrade-state">
                  {t('upgrades.refused')}
                </Tag>
              ),
          },
          {
            key: 'progress',
            title: t('upgrades.progress'),
            width: 200,
            render: (_, r) =>
              r.upgrade?.state === 'queued' ? (
                <Typography.Text type="secondary">{t('upgrades.waiting')}</Typography.Text>
              ) : r.upgrade ? (
                <Progress
                  size="small"
                  percent={r.upgrade.progress}
                  status={progressStatus(r.upgrade.state)}
                />
              ) : (
                MISSING
              ),
          },
          {
            key: 'version',
            title: t('upgrades.version'),
            render: (_, r) =>
              r.upgrade ? `${r.upgrade.fromVersion || MISSING} → ${r.upgrade.version}` : MISSING,
          },
          {
            key: 'reason',
            title: t('upgrades.reason'),
            render: (_, r) => reasonOf(r, (reason) => t(`upgrades.reasons.${reason}`)),
          },
          {
            key: 'action',
            title: '',
            render: (_, r) =>
              target === 'inverter' && r.upgrade?.cancellable ? (
                <Button
                  size="small"
                  danger
                  loading={cancelling === r.sn}
                  onClick={() => cancel(r.sn, r.upgrade?.state === 'queued')}
                  data-testid="upgrade-cancel"
                >
                  {t('upgrades.cancel')}
                </Button>
              ) : null,
          },
        ]}
      />
    </div>
  );
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
