import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Skeleton, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Problem } from '@/shared/ui/Problem';
import { useNarrow } from '@/shared/ui/useNarrow';
import { caseDetailQuery, type AlarmCase, type AlarmCaseDetail } from './api';
import { subjectOf, valueOf, when } from './format';
import { SeverityBadge, StateTag } from './labels';

/** A case with what it was computed from and its history (opened, escalated, acknowledged,
 * closed): from the list's row, or by its id alone (a link from an alarm webhook). */
export function CaseDrawer({
  id,
  alarm,
  onClose,
}: {
  id: number;
  alarm?: AlarmCase;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const detail = useQuery(caseDetailQuery(id));
  const c = detail.data?.case ?? alarm;
  return (
    <Drawer
      open
      onClose={onClose}
      width={phone ? '100%' : 480}
      title={c ? t(`alarms.kind.${c.kind}`) : t('alarms.title')}
      data-testid="alarm-drawer"
    >
      {!c ? (
        detail.isError ? (
          <Problem title={t('alarms.detailFailed')} />
        ) : (
          <Skeleton active />
        )
      ) : (
        <CaseBody c={c} history={detail.data?.history} failed={detail.isError} />
      )}
    </Drawer>
  );
}

function CaseBody({
  c,
  history,
  failed,
}: {
  c: AlarmCase;
  history: AlarmCaseDetail['history'] | undefined;
  failed: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('alarms.column.severity')}>
          <SeverityBadge severity={c.severity} t={t} />
        </Descriptions.Item>
        <Descriptions.Item label={t('alarms.column.state')}>
          <StateTag state={c.state} t={t} />
        </Descriptions.Item>
        <Descriptions.Item label={t('alarms.column.plant')}>{c.plantName}</Descriptions.Item>
        <Descriptions.Item label={t('alarms.column.device')}>{subjectOf(c, t)}</Descriptions.Item>
        <Descriptions.Item label={t('alarms.column.value')}>{valueOf(c, t)}</Descriptions.Item>
        <Descriptions.Item label={t('alarms.column.since')}>{when(c.openedAt)}</Descriptions.Item>
        {c.ackComment && (
          <Descriptions.Item label={t('alarms.comment')}>{c.ackComment}</Descriptions.Item>
        )}
      </Descriptions>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('alarms.history')}
      </Typography.Title>
      {failed ? (
        <Problem title={t('alarms.detailFailed')} />
      ) : !history ? (
        <Skeleton active />
      ) : (
        <Timeline
          data-testid="alarm-history"
          items={history.map((h) => ({
            color: h.action === 'closed' ? 'green' : h.action === 'acknowledged' ? 'blue' : 'red',
            children: (
              <div data-testid="alarm-history-item">
                <Typography.Text strong>{t(`alarms.action.${h.action}`)}</Typography.Text>{' '}
                <Typography.Text type="secondary">{when(h.at)}</Typography.Text>
                {h.account && <div>{h.account}</div>}
                {h.comment && <div>{h.comment}</div>}
              </div>
            ),
          }))}
        />
      )}
    </>
  );
}
