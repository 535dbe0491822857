import { SyncOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Flex, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIVE_REFRESH_MS } from '@/shared/api/live';
import type { GatewayRow } from '@/shared/api/gateways';
import { ageOf } from '../lastMessage';
import { followQuery, type BatchItem, type BatchResult } from './api';
import { BACK_WITHIN_MS, follow, followedIds, settled, type Follow } from './follow';

/**
 * After a restart: a row per gateway, "Restarting…" until the gateway signs in again after it
 * accepted the restart ("Back online" and when), "Not back yet" with its last message when it
 * has not within [BACK_WITHIN_MS], or why there is nothing to follow (refused, offline, failed,
 * no answer). The gateways are read at the live interval until every row is settled.
 * `answeredAt`: when the restart's answer arrived (the browser's clock), where the bound
 * starts; `notSent`: the gateways the check refused, shown last with their reason, so every
 * gateway asked about has its row.
 */
export function RestartFollow({
  result,
  answeredAt,
  notSent = [],
}: {
  result: BatchResult;
  answeredAt: number;
  notSent?: readonly BatchItem[];
}) {
  const { t } = useTranslation();
  const items = [
    ...result.items,
    ...notSent.filter((n) => !result.items.some((i) => i.sn === n.sn)),
  ];
  const ids = followedIds(items);
  const [now, setNow] = useState(() => Date.now());
  const rows = useQuery({
    ...followQuery(ids),
    enabled: ids.length > 0,
    refetchInterval: (q) => nextRead(items, q.state.data?.infos, answeredAt),
  });
  const follows = followsAt(items, rows.data?.infos, now - answeredAt);
  const done = settled(follows);
  useEffect(() => {
    if (done) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [done]);

  const back = follows.filter((f) => f.state === 'back').length;
  return (
    <div data-testid="restart-result">
      <Typography.Paragraph>
        {t('gatewayActions.restartSummary', {
          succeeded: result.succeeded,
          failed: result.failed,
        })}
      </Typography.Paragraph>
      {ids.length > 0 && (
        <Typography.Paragraph type="secondary" data-testid="restart-follow-note">
          {done
            ? t('gatewayActions.follow.settled', { back, total: ids.length })
            : t('gatewayActions.follow.note', { minutes: BACK_WITHIN_MS / 60_000 })}
        </Typography.Paragraph>
      )}
      {rows.isError && (
        <Alert
          type="warning"
          showIcon
          title={t('gatewayActions.follow.readFailed')}
          style={{ marginBottom: 12 }}
        />
      )}
      <Flex vertical gap={8}>
        {items.map((item, i) => (
          <FollowRow
            key={item.sn}
            item={item}
            follow={follows[i] ?? { state: 'failed', item }}
            now={now}
            elapsed={now - answeredAt}
          />
        ))}
      </Flex>
    </div>
  );
}

/** Where each gateway of `items` stands, given the rows read and the time since the answer. */
function followsAt(
  items: readonly BatchItem[],
  rows: readonly GatewayRow[] | undefined,
  elapsedMs: number,
): Follow[] {
  return items.map((item) =>
    follow(
      item,
      rows?.find((r) => r.id === item.gatewayId),
      elapsedMs,
    ),
  );
}

/**
 * When to read the gateways again, after each answer: at the live interval until every one is
 * settled (by that answer and the time now), then never.
 */
function nextRead(
  items: readonly BatchItem[],
  rows: readonly GatewayRow[] | undefined,
  answeredAt: number,
): number | false {
  return settled(followsAt(items, rows, Date.now() - answeredAt)) ? false : LIVE_REFRESH_MS;
}

/**
 * When the gateway was last heard from, in the browser's time like the rest of the dialog
 * ("Back online 14:05:09"), and how long ago.
 */
function LastHeard({ at, now }: { at: string | null | undefined; now: number }) {
  const { t } = useTranslation();
  const age = ageOf(at, now);
  if (!at || !age) return <>{t('gateways.noMessage')}</>;
  return (
    <span data-testid="restart-last-message" data-at={at}>
      {dayjs(at).format('YYYY-MM-DD HH:mm:ss')} ·{' '}
      {t(`gateways.ago.${age.unit}`, { count: age.count })}
    </span>
  );
}

function FollowRow({
  item,
  follow: f,
  now,
  elapsed,
}: {
  item: BatchItem;
  follow: Follow;
  now: number;
  elapsed: number;
}) {
  const { t } = useTranslation();
  let tag;
  let detail;
  switch (f.state) {
    case 'restarting':
      tag = (
        <Tag color="processing" icon={<SyncOutlined spin />}>
          {t('gatewayActions.follow.restarting')}
        </Tag>
      );
      detail = t('gatewayActions.follow.waiting', {
        seconds: Math.max(0, Math.floor(elapsed / 1000)),
      });
      break;
    case 'back':
      tag = (
        <Tag color="success" title={dayjs(f.at).format('YYYY-MM-DD HH:mm:ss')}>
          {t('gatewayActions.follow.back', { time: dayjs(f.at).format('HH:mm:ss') })}
        </Tag>
      );
      break;
    case 'notBack':
      tag = <Tag color="warning">{t('gatewayActions.follow.notBack')}</Tag>;
      detail = (
        <>
          {t('gatewayActions.follow.notBackHelp', { minutes: BACK_WITHIN_MS / 60_000 })}{' '}
          {t('gatewayActions.follow.lastMessage')} <LastHeard at={f.row?.lastMessageAt} now={now} />
        </>
      );
      break;
    case 'failed':
      tag = (
        <Tag color={item.status === 'timed_out' ? 'warning' : 'error'}>
          {t(`gatewayActions.itemStatus.${item.status}`, { defaultValue: item.status })}
        </Tag>
      );
      detail = item.msg;
      break;
  }
  return (
    <div
      className="restart-follow-row"
      data-testid="restart-follow-row"
      data-sn={item.sn}
      data-state={f.state}
      style={{ borderBottom: '1px solid rgba(128,128,128,0.2)', paddingBottom: 8 }}
    >
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Text strong style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
          {item.sn}
        </Typography.Text>
        <span data-testid="batch-item-status">{tag}</span>
      </Flex>
      {detail && (
        <Typography.Text type="secondary" style={{ overflowWrap: 'anywhere' }}>
          {detail}
        </Typography.Text>
      )}
    </div>
  );
}
