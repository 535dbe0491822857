import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Progress, Space, Statistic, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { gatewayKeys, inverterKeys } from '@/shared/api/keys';
import { isApiError } from '@/shared/http';
import { outcomeColor } from '@/shared/ui/status';
import { useNarrow } from '@/shared/ui/useNarrow';
import { batchQuery, cancelUpgrade, type BatchStart, type UpgradeTarget } from './api';
import { progressStatus, reasonOf, rowsOf, stateLabel, summary, type Row } from './progress';

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
    cancelUpgrade(target, sn)
      .then(() => {
        message.info(t(queued ? 'upgrades.unqueued' : 'upgrades.cancelRequested', { sn }));
        return batch.refetch();
      })
      .catch((e: unknown) => message.error(isApiError(e) ? e.message : t('upgrades.requestFailed')))
      .finally(() => setCancelling(null));
  };

  const phone = useNarrow();
  const stateTag = (r: Row) =>
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
    );
  const progress = (r: Row) =>
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
    );
  const version = (r: Row) =>
    r.upgrade ? `${r.upgrade.fromVersion || MISSING} → ${r.upgrade.version}` : MISSING;
  const reason = (r: Row) => reasonOf(r, (why) => t(`upgrades.reasons.${why}`));
  const action = (r: Row) =>
    r.upgrade?.cancellable ? (
      <Button
        size="small"
        danger
        loading={cancelling === r.sn}
        onClick={() => cancel(r.sn, r.upgrade?.state === 'queued')}
        data-testid="upgrade-cancel"
      >
        {t('upgrades.cancel')}
      </Button>
    ) : null;
  // A phone has room for two columns: the SN with its versions, and the rest under the state.
  const columns: TableProps<Row>['columns'] = phone
    ? [
        {
          key: 'sn',
          title: t('upgrades.sn'),
          render: (_, r) => (
            <Flex vertical>
              <span>{r.sn}</span>
              <Typography.Text type="secondary">{version(r)}</Typography.Text>
            </Flex>
          ),
        },
        {
          key: 'state',
          title: t('upgrades.state'),
          render: (_, r) => (
            <Flex vertical gap={4} align="start">
              {stateTag(r)}
              {r.upgrade && progress(r)}
              {reason(r) && <Typography.Text type="secondary">{reason(r)}</Typography.Text>}
              {action(r)}
            </Flex>
          ),
        },
      ]
    : [
        { key: 'sn', title: t('upgrades.sn'), render: (_, r) => r.sn },
        { key: 'state', title: t('upgrades.state'), render: (_, r) => stateTag(r) },
        {
          key: 'progress',
          title: t('upgrades.progress'),
          width: 200,
          render: (_, r) => progress(r),
        },
        { key: 'version', title: t('upgrades.version'), render: (_, r) => version(r) },
        { key: 'reason', title: t('upgrades.reason'), render: (_, r) => reason(r) },
        { key: 'action', title: '', render: (_, r) => action(r) },
      ];

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
        <Statistic
          title={t('upgrades.running')}
          value={start.sent > 0 ? s.running - s.queued : 0}
        />
      </Space>
      <Table<Row>
        rowKey="sn"
        size="small"
        pagination={false}
        dataSource={rows}
        columns={columns}
        data-testid="upgrade-rows"
      />
    </div>
  );
}
