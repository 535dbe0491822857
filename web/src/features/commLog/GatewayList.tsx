import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Flex, Select, Typography, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { plantOptionsQuery } from '@/shared/api/plants';
import { formatNumber, MISSING } from '@/shared/format/number';
import { useDraft } from '@/shared/hooks/useDraft';
import { ListCard } from '@/shared/list/ListCard';
import { PagedTable } from '@/shared/list/PagedTable';
import { useListQuery } from '@/shared/list/useListQuery';
import { useNarrow } from '@/shared/ui/useNarrow';
import { GATEWAY_FILTERS, gatewayListQuery, type LoggerGateway } from './api';
import { localTime } from './format';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };

/** The gateways whose traffic the caller may read; choosing one opens its messages. */
export function GatewayList({ onOpen }: { onOpen: (sn: string) => void }) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const { query, list, update, setPage, filtered } = useListQuery(
    GATEWAY_FILTERS,
    gatewayListQuery,
  );
  const [search, setSearch] = useDraft(query.keyword);
  const plants = useQuery(plantOptionsQuery);

  const status = (g: LoggerGateway) => (
    <Badge
      status={g.online ? 'success' : 'default'}
      text={t(g.online ? 'commLog.online' : 'commLog.offline')}
    />
  );
  const open = (g: LoggerGateway) => (
    <Button
      type="link"
      style={{ padding: 0, height: 'auto' }}
      onClick={() => onOpen(g.sn)}
      data-testid="commlog-gateway-open"
    >
      {g.sn}
    </Button>
  );
  const traffic = (g: LoggerGateway) =>
    t('commLog.traffic', { up: formatNumber(g.uplinks), down: formatNumber(g.downlinks) });

  const columns: TableProps<LoggerGateway>['columns'] = phone
    ? [
        {
          key: 'gateway',
          title: t('commLog.gateway'),
          render: (_, g) => (
            <Flex vertical gap={2}>
              {open(g)}
              <Typography.Text type="secondary">{g.plantName || MISSING}</Typography.Text>
              {status(g)}
              <Typography.Text type="secondary">{traffic(g)}</Typography.Text>
            </Flex>
          ),
        },
      ]
    : [
        { key: 'sn', title: t('commLog.sn'), onCell: () => nowrap, render: (_, g) => open(g) },
        { key: 'alias', title: t('commLog.alias'), render: (_, g) => g.alias || MISSING },
        { key: 'plant', title: t('commLog.plant'), render: (_, g) => g.plantName || MISSING },
        {
          key: 'status',
          title: t('commLog.status'),
          onCell: () => nowrap,
          render: (_, g) => status(g),
        },
        {
          key: 'lastMessage',
          title: t('commLog.lastMessage'),
          onCell: () => nowrap,
          render: (_, g) => localTime(g.lastMessageAt),
        },
        {
          key: 'uplinks',
          title: t('commLog.uplinks'),
          align: 'right',
          render: (_, g) => formatNumber(g.uplinks),
        },
        {
          key: 'downlinks',
          title: t('commLog.downlinks'),
          align: 'right',
          render: (_, g) => formatNumber(g.downlinks),
        },
        {
          key: 'lastLog',
          title: t('commLog.lastLog'),
          onCell: () => nowrap,
          render: (_, g) => localTime(g.lastLogAt),
        },
      ];

  return (
    <ListCard
      title={t('commLog.title')}
      titleTestId="commlog-title"
      search={{
        placeholder: t('commLog.search'),
        value: search,
        onChange: setSearch,
        onSearch: (keyword) => update({ keyword }),
        width: 260,
        testId: 'commlog-search',
      }}
      filters={
        <Select
          aria-label={t('commLog.plant')}
          placeholder={t('commLog.allPlants')}
          allowClear
          showSearch
          optionFilterProp="label"
          value={query.plantId ?? undefined}
          onChange={(plantId?: number) => update({ plantId: plantId ?? null })}
          loading={plants.isPending}
          style={{ width: phone ? '100%' : 220 }}
          options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          data-testid="commlog-plant"
        />
      }
    >
      <Typography.Paragraph type="secondary">{t('commLog.intro')}</Typography.Paragraph>
      <PagedTable<LoggerGateway>
        list={list}
        page={query.page}
        limit={query.limit}
        onPage={setPage}
        columns={columns}
        testId="commlog-gateways"
        errorTestId="commlog-gateways-error"
        loadFailed={t('commLog.loadFailed')}
        empty={filtered ? t('commLog.noMatch') : t('commLog.noGateways')}
        total={(count) => t('commLog.gatewayTotal', { total: count })}
        compact={phone}
      />
    </ListCard>
  );
}
