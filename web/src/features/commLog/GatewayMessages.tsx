import { ArrowLeftOutlined, EyeOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  DatePicker,
  Flex,
  Segmented,
  Select,
  Switch,
  Typography,
  type TableProps,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MISSING } from '@/shared/format/number';
import { PagedTable } from '@/shared/list/PagedTable';
import { useListParams } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { useNarrow } from '@/shared/ui/useNarrow';
import {
  KINDS,
  MESSAGE_FILTERS,
  messagePageQuery,
  type Direction,
  type LoggedMessage,
} from './api';
import { DirectionTag, KindTag } from './tags';
import { formatSize, localTime } from './format';
import { PayloadDrawer } from './PayloadDrawer';
import { LOG_PRESETS, logPresetRange, toMinute } from './ranges';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };

/**
 * One gateway's messages, newest first: direction and kind filters, a time range with presets,
 * paging and an optional auto-refresh; a message opens in a drawer with its payload.
 */
export function GatewayMessages({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const mayOpenGateway = useCan('gateway.view');
  const { query, update, setPage } = useListParams(MESSAGE_FILTERS, 20);
  const [auto, setAuto] = useState(false);
  const [opened, setOpened] = useState<number | null>(null);
  const list = useQuery(messagePageQuery(query, auto));
  const filtered =
    query.direction !== '' || query.kind !== '' || query.from !== '' || query.to !== '';
  const range: [Dayjs, Dayjs] | null =
    query.from && query.to ? [dayjs(query.from), dayjs(query.to)] : null;

  const view = (m: LoggedMessage) => (
    <Button
      size="small"
      icon={<EyeOutlined />}
      aria-label={t('commLog.view')}
      onClick={() => setOpened(m.id)}
      data-testid="commlog-view"
    >
      {phone ? null : t('commLog.view')}
    </Button>
  );
  const summary = (m: LoggedMessage) => (
    <Typography.Text
      code
      ellipsis
      style={{ maxWidth: phone ? 220 : 420, display: 'inline-block' }}
      data-testid="commlog-summary"
    >
      {m.summary || MISSING}
    </Typography.Text>
  );

  const columns: TableProps<LoggedMessage>['columns'] = phone
    ? [
        {
          key: 'message',
          title: t('commLog.message'),
          render: (_, m) => (
            <Flex vertical gap={4}>
              <Flex gap={6} wrap align="center">
                <DirectionTag d={m.direction} />
                <KindTag kind={m.kind} />
                <Typography.Text type="secondary">{localTime(m.at)}</Typography.Text>
              </Flex>
              {summary(m)}
            </Flex>
          ),
        },
        { key: 'view', width: 56, render: (_, m) => view(m) },
      ]
    : [
        {
          key: 'time',
          title: t('commLog.time'),
          onCell: () => nowrap,
          render: (_, m) => localTime(m.at),
        },
        {
          key: 'direction',
          title: t('commLog.direction'),
          render: (_, m) => <DirectionTag d={m.direction} />,
        },
        {
          key: 'kind',
          title: t('commLog.kind'),
          render: (_, m) => <KindTag kind={m.kind} />,
        },
        {
          key: 'topic',
          title: t('commLog.topic'),
          // long and implied by the kind: on the widest screens only (the drawer always has it)
          responsive: ['xxl'],
          render: (_, m) => <Typography.Text type="secondary">{m.topic}</Typography.Text>,
        },
        {
          key: 'size',
          title: t('commLog.size'),
          align: 'right',
          onCell: () => nowrap,
          render: (_, m) => formatSize(m.size),
        },
        { key: 'summary', title: t('commLog.summary'), render: (_, m) => summary(m) },
        {
          key: 'command',
          title: t('commLog.commandId'),
          responsive: ['lg'],
          render: (_, m) => <span data-testid="commlog-command">{m.commandId ?? MISSING}</span>,
        },
        { key: 'view', title: t('commLog.actions'), render: (_, m) => view(m) },
      ];

  return (
    <Card
      styles={{ title: { whiteSpace: 'normal', overflow: 'visible', padding: '12px 0' } }}
      title={
        <Flex gap={12} wrap align="center">
          <Button icon={<ArrowLeftOutlined />} onClick={onBack} data-testid="commlog-back">
            {t('commLog.back')}
          </Button>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="commlog-gateway-title">
            {t('commLog.gatewayTitle', { sn: query.sn })}
          </Typography.Title>
          {mayOpenGateway && (
            <Link to={`/device/gateway/${encodeURIComponent(query.sn)}`}>
              {t('commLog.openGateway')}
            </Link>
          )}
        </Flex>
      }
    >
      <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
        <Segmented<Direction | ''>
          value={query.direction}
          onChange={(direction) => update({ direction })}
          options={[
            { value: '', label: t('commLog.dir.all') },
            { value: 'up', label: t('commLog.dir.up') },
            { value: 'down', label: t('commLog.dir.down') },
          ]}
          data-testid="commlog-direction-filter"
        />
        <Select<string>
          aria-label={t('commLog.kind')}
          value={query.kind}
          onChange={(kind) => update({ kind })}
          style={{ width: phone ? '100%' : 160 }}
          options={[
            { value: '', label: t('commLog.allKinds') },
            ...KINDS.map((k) => ({ value: k, label: t(`commLog.kinds.${k}`) })),
          ]}
          data-testid="commlog-kind-filter"
        />
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          aria-label={t('commLog.range')}
          value={range}
          presets={LOG_PRESETS.map((p) => ({
            label: t(`commLog.presets.${p}`),
            value: () => logPresetRange(p),
          }))}
          onChange={(picked) => update({ from: toMinute(picked?.[0]), to: toMinute(picked?.[1]) })}
          style={phone ? { width: '100%' } : undefined}
          data-testid="commlog-range"
        />
        <Flex gap={8} align="center">
          <Switch
            checked={auto}
            onChange={setAuto}
            aria-label={t('commLog.autoRefresh')}
            data-testid="commlog-auto"
          />
          <Typography.Text>{t('commLog.autoRefresh')}</Typography.Text>
        </Flex>
        <Button onClick={() => void list.refetch()} loading={list.isFetching && !auto}>
          {t('common.refresh')}
        </Button>
      </Flex>
      <PagedTable<LoggedMessage>
        // an auto-refresh reads again quietly, without the table's spinner every few seconds
        list={auto ? { ...list, isFetching: false } : list}
        page={query.page}
        limit={query.limit}
        onPage={setPage}
        columns={columns}
        testId="commlog-messages"
        errorTestId="commlog-messages-error"
        loadFailed={t('commLog.messagesFailed')}
        empty={filtered ? t('commLog.noMatchingMessages') : t('commLog.noMessages')}
        total={(count) => t('commLog.messageTotal', { total: count })}
        compact={phone}
      />
      <PayloadDrawer id={opened} onClose={() => setOpened(null)} />
    </Card>
  );
}
