import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Modal, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { SubmitButton } from '@/shared/ui/guarded';
import {
  batchCheck,
  restartGateways,
  splitSns,
  type BatchItem,
  type BatchResult,
  type CheckResult,
} from './api';
import { invalidateGateways } from './invalidate';
import { RestartFollow } from './RestartFollow';

function statusColor(item: BatchItem): string {
  if (item.success) return 'success';
  return item.status === 'timed_out' ? 'warning' : 'error';
}

/**
 * Totals and each gateway's outcome with its reason: of a restart (succeeded, failed) or of the
 * check before it (ready, refused: nothing has succeeded yet).
 */
export function BatchResultView({
  result,
  testId,
}: {
  result: BatchResult | CheckResult;
  testId: string;
}) {
  const { t } = useTranslation();
  const [good, bad] =
    'ready' in result
      ? [
          { title: t('gatewayActions.ready'), value: result.ready },
          { title: t('gatewayActions.refused'), value: result.refused },
        ]
      : [
          { title: t('gatewayActions.succeeded'), value: result.succeeded },
          { title: t('gatewayActions.failed'), value: result.failed },
        ];
  return (
    <div data-testid={testId}>
      <Space size="large" style={{ marginBottom: 12 }} data-testid={`${testId}-totals`}>
        <Statistic title={t('gatewayActions.total')} value={result.total} />
        <Statistic
          title={good.title}
          value={good.value}
          styles={{ content: { color: '#389e0d' } }}
        />
        <Statistic
          title={bad.title}
          value={bad.value}
          styles={{ content: bad.value ? { color: '#cf1322' } : undefined }}
        />
      </Space>
      <Table<BatchItem>
        rowKey="sn"
        size="small"
        pagination={false}
        dataSource={result.items}
        columns={[
          { key: 'sn', title: t('gatewayActions.sn'), render: (_, i) => i.sn },
          {
            key: 'status',
            title: t('gatewayActions.status'),
            render: (_, i) => (
              <Tag color={statusColor(i)} data-testid="batch-item-status">
                {t(`gatewayActions.itemStatus.${i.status}`, { defaultValue: i.status })}
              </Tag>
            ),
          },
          {
            key: 'reason',
            title: t('gatewayActions.reason'),
            render: (_, i) => (i.success ? '' : i.msg),
          },
        ]}
      />
    </div>
  );
}

/**
 * Restarting gateways: the batch check first (which would fail and why), then the restart of
 * the ones that passed, then each gateway followed until it is back online (see
 * [RestartFollow]). `fixed` restarts those SNs (of the plant `plantId`); without it the user
 * types them.
 */
export function RestartDialog({
  open,
  onClose,
  fixed,
  plantId = null,
}: {
  open: boolean;
  /** `restarted`: whether a restart was sent before the dialog closed. */
  onClose: (restarted: boolean) => void;
  fixed?: string[];
  plantId?: number | null;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [check, setCheck] = useState<CheckResult | null>(null);
  const [result, setResult] = useState<BatchResult | null>(null);
  const [answeredAt, setAnsweredAt] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sns = fixed ?? splitSns(text);
  const passing = check?.items.filter((i) => i.success).map((i) => i.sn) ?? [];

  const reset = () => {
    setCheck(null);
    setResult(null);
    setError(null);
    setText('');
  };
  const close = () => {
    reset();
    onClose(result !== null);
  };
  const fail = (e: unknown) =>
    setError(isApiError(e) ? e.message : t('gatewayActions.requestFailed'));

  const runCheck = () => {
    setBusy(true);
    setError(null);
    batchCheck(sns, 'restart')
      .then(setCheck)
      .catch(fail)
      .finally(() => setBusy(false));
  };
  const runRestart = () => {
    setBusy(true);
    setError(null);
    restartGateways(passing)
      .then((r) => {
        setResult(r);
        setAnsweredAt(Date.now());
        void invalidateGateways(queryClient, plantId);
      })
      .catch(fail)
      .finally(() => setBusy(false));
  };

  let footer;
  if (result) {
    footer = (
      <Button type="primary" onClick={close} data-testid="restart-done">
        {t('gatewayActions.close')}
      </Button>
    );
  } else if (check) {
    footer = (
      <Space>
        <Button onClick={() => setCheck(null)} disabled={busy}>
          {t('gatewayActions.back')}
        </Button>
        <SubmitButton
          type="primary"
          danger
          loading={busy}
          disabled={passing.length === 0}
          onClick={runRestart}
          data-testid="restart-confirm"
        >
          {t('gatewayActions.restartN', { count: passing.length })}
        </SubmitButton>
      </Space>
    );
  } else {
    footer = (
      <Space>
        <Button onClick={close}>{t('common.cancel')}</Button>
        <Button
          type="primary"
          loading={busy}
          disabled={sns.length === 0}
          onClick={runCheck}
          data-testid="restart-check"
        >
          {t('gatewayActions.check')}
        </Button>
      </Space>
    );
  }

  return (
    <Modal
      open={open}
      title={t('gatewayActions.restartTitle')}
      onCancel={close}
      footer={footer}
      width={640}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      {result ? (
        <RestartFollow
          result={result}
          answeredAt={answeredAt}
          notSent={check?.items.filter((i) => !i.success)}
        />
      ) : check ? (
        <>
          <Typography.Paragraph>
            {t('gatewayActions.checkSummary', { ok: passing.length, total: check.total })}
          </Typography.Paragraph>
          <BatchResultView result={check} testId="restart-check-result" />
        </>
      ) : fixed ? (
        <Typography.Paragraph>
          {t('gatewayActions.restartConfirm', { sns: fixed.join(', ') })}
        </Typography.Paragraph>
      ) : (
        <Input.TextArea
          rows={5}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('gatewayActions.snsPlaceholder')}
          aria-label={t('gatewayActions.sns')}
          data-testid="restart-sns"
        />
      )}
    </Modal>
  );
}
