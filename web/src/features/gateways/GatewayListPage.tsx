import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Flex,
  Input,
  InputNumber,
  Result,
  Segmented,
  Space,
  Table,
  Typography,
  type TableProps,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { gatewayKeys } from '@/shared/api/keys';
import { MISSING } from '@/shared/format/number';
import { ImportDialog } from '@/shared/gatewayImport';
import { useDraft } from '@/shared/hooks/useDraft';
import { isApiError } from '@/shared/http';
import { CLIPPED, cardColumn, clipped } from '@/shared/list/columns';
import { RowCard } from '@/shared/list/RowCard';
import { useListQuery } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { AgentFilter, CustomerFilter } from '@/shared/ui/PickerFilters';
import { useNarrow } from '@/shared/ui/useNarrow';
import { UpgradeButton } from '@/shared/upgrades';
import {
  downloadGateways,
  GATEWAY_FILTERS,
  gatewayCountQuery,
  gatewayListQuery,
  type GatewayRow,
} from './api';
import { BatchRestartButton } from './actions/BatchRestartButton';
import { LastMessage } from './LastMessage';
import { SignalBars } from './SignalBars';
import { StatusBadge } from './status';

const text = (v: string | null | undefined) => (v && v.trim() ? v : MISSING);
const nowrap = { style: { whiteSpace: 'nowrap' as const } };

/** device/gateway: the gateways the caller may see, with counts, filters and a download. */
export default function GatewayListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const mayExport = useCan('gateway.export');
  const mayImport = useCan('gateway.import');
  const queryClient = useQueryClient();
  const [importing, setImporting] = useState(false);
  const { query, list, update, setPage, filtered } = useListQuery(
    GATEWAY_FILTERS,
    gatewayListQuery,
  );
  const [sn, setSn] = useDraft(query.sn);
  // The gateways picked for a batch restart, kept across pages (id -> SN).
  const mayRestart = useCan('gateway.restart');
  const [picked, setPicked] = useState<Map<number, string>>(new Map());
  const [protocol, setProtocol] = useDraft(query.protocol);
  const [downloading, setDownloading] = useState(false);
  const counts = useQuery(gatewayCountQuery);
  const phone = useNarrow();

  const download = () => {
    setDownloading(true);
    downloadGateways(query)
      .catch((e: unknown) =>
        message.error(isApiError(e) ? e.message : t('gateways.downloadFailed')),
      )
      .finally(() => setDownloading(false));
  };

  const snLink = (row: GatewayRow) => (
    <Link to={`/device/gateway/${row.id}`} data-testid="gateway-sn">
      {row.sn}
    </Link>
  );
  // At 1440 px the names, the state and the last message fit without scrolling: the versions,
  // the link type and the upload cycle join them from 1600 px (antd's xxl) and on the card.
  const wideOnly = { responsive: ['xxl' as const] };
  const columns: TableProps<GatewayRow>['columns'] = [
    {
      key: 'sn',
      title: t('gateways.column.sn'),
      fixed: 'left',
      width: 140,
      render: (_, row) => snLink(row),
    },
    {
      key: 'alias',
      title: t('gateways.column.alias'),
      width: 120,
      ...CLIPPED,
      render: (_, row) => clipped(text(row.alias)),
    },
    {
      key: 'status',
      title: t('gateways.column.status'),
      width: 100,
      render: (_, row) => <StatusBadge status={row.status} />,
    },
    {
      key: 'signal',
      title: t('gateways.column.signal'),
      width: 72,
      render: (_, row) => <SignalBars signal={row.signal ?? null} />,
    },
    {
      key: 'softVer',
      title: t('gateways.column.softVer'),
      width: 110,
      ...wideOnly,
      ...CLIPPED,
      render: (_, row) => clipped(text(row.softVer)),
    },
    {
      key: 'hardVer',
      title: t('gateways.column.hardVer'),
      width: 100,
      ...wideOnly,
      ...CLIPPED,
      render: (_, row) => clipped(text(row.hardVer)),
    },
    {
      key: 'protocol',
      title: t('gateways.column.protocol'),
      width: 150,
      ...CLIPPED,
      render: (_, row) => clipped(text(row.proto)),
    },
    {
      key: 'comm',
      title: t('gateways.column.commType'),
      width: 130,
      ...wideOnly,
      onHeaderCell: () => nowrap,
      render: (_, row) => text(row.commTypeName),
    },
    {
      key: 'lldt',
      title: t('gateways.column.lastMessage'),
      width: 230,
      render: (_, row) => <LastMessage lldt={row.lldt ?? null} at={row.lastMessageAt} />,
    },
    {
      key: 'uploadCycle',
      title: t('gateways.column.uploadCycle'),
      align: 'right',
      width: 110,
      ...wideOnly,
      render: (_, row) => t('gateways.seconds', { value: row.uploadCycle }),
    },
    {
      key: 'customer',
      title: t('gateways.column.customer'),
      ...CLIPPED,
      render: (_, row) => clipped(text(row.customerName)),
    },
    {
      key: 'plant',
      title: t('gateways.column.plant'),
      ...CLIPPED,
      render: (_, row) => clipped(text(row.plantName)),
    },
  ];
  const cards: TableProps<GatewayRow>['columns'] = [
    cardColumn(t('gateways.title'), (row) => (
      <RowCard
        testId="gateway-card"
        title={
          <>
            {snLink(row)}
            {row.alias?.trim() ? (
              <Typography.Text type="secondary"> · {row.alias}</Typography.Text>
            ) : null}
          </>
        }
        status={<StatusBadge status={row.status} />}
        fields={[
          {
            label: t('gateways.column.lastMessage'),
            value: <LastMessage lldt={row.lldt ?? null} at={row.lastMessageAt} />,
          },
          { label: t('gateways.column.signal'), value: <SignalBars signal={row.signal ?? null} /> },
          {
            label: t('gateways.column.protocol'),
            value: [text(row.proto), row.commTypeName].filter(Boolean).join(' · '),
          },
          {
            label: t('gateways.column.softVer'),
            value: [text(row.softVer), row.hardVer].filter(Boolean).join(' / '),
          },
          { label: t('gateways.column.plant'), value: text(row.plantName) },
          { label: t('gateways.column.customer'), value: text(row.customerName) },
        ]}
      />
    )),
  ];

  return (
    <Card
      // The actions wrap under the title on a narrow screen rather than push the page wide.
      styles={{ title: { whiteSpace: 'normal', overflow: 'visible', padding: '12px 0' } }}
      title={
        <Flex gap={12} wrap align="center" justify="space-between">
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="gateways-title">
            {t('gateways.title')}
          </Typography.Title>
          <Flex gap={8} wrap>
            <BatchRestartButton
              selected={[...picked.values()]}
              onDone={() => setPicked(new Map())}
            />
            <UpgradeButton target="gateway" />
            {mayImport && (
              <Button
                icon={<UploadOutlined />}
                onClick={() => setImporting(true)}
                data-testid="gateways-import"
              >
                {t('sysGateways.import.action')}
              </Button>
            )}
            {mayExport && (
              <Button
                icon={<DownloadOutlined />}
                loading={downloading}
                onClick={download}
                data-testid="gateways-download"
              >
                {t('gateways.download')}
              </Button>
            )}
          </Flex>
        </Flex>
      }
    >
      <Flex gap={12} wrap justify="space-between" style={{ marginBottom: 16 }}>
        <Segmented
          data-testid="gateway-status"
          value={query.status}
          onChange={(status) => update({ status: Number(status) })}
          options={[
            { value: -1, label: `${t('gateways.filter.all')} ${counts.data?.total ?? MISSING}` },
            { value: 1, label: `${t('gateways.status.online')} ${counts.data?.online ?? MISSING}` },
            {
              value: 0,
              label: `${t('gateways.status.offline')} ${counts.data?.offline ?? MISSING}`,
            },
          ]}
        />
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('gateways.filter.sn')}
            aria-label={t('gateways.filter.sn')}
            value={sn}
            onChange={(e) => setSn(e.target.value)}
            onSearch={(v) => update({ sn: v })}
            style={{ width: 200 }}
            data-testid="gateway-search"
          />
          <Input.Search
            allowClear
            placeholder={t('gateways.filter.protocol')}
            aria-label={t('gateways.filter.protocol')}
            value={protocol}
            onChange={(e) => setProtocol(e.target.value)}
            onSearch={(v) => update({ protocol: v })}
            style={{ width: 200 }}
          />
          <InputNumber<number>
            min={1}
            placeholder={t('gateways.filter.uploadCycle')}
            aria-label={t('gateways.filter.uploadCycle')}
            value={query.uploadCycle > 0 ? query.uploadCycle : null}
            onChange={(v) => update({ uploadCycle: v && v > 0 ? v : -1 })}
            style={{ width: 170 }}
            suffix="s"
          />
          <AgentFilter
            value={query.agentCompanyId}
            onChange={(agentCompanyId) => update({ agentCompanyId })}
            width={200}
            label={t('gateways.filter.agent')}
            placeholder={t('gateways.filter.anyAgent')}
          />
          <CustomerFilter
            value={query.customerId}
            onChange={(customerId) => update({ customerId })}
            width={220}
            label={t('gateways.filter.customer')}
            placeholder={t('gateways.filter.anyCustomer')}
          />
        </Space>
      </Flex>
      {list.isError ? (
        <Result
          status="warning"
          title={t('gateways.loadFailed')}
          extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <Table<GatewayRow>
          rowKey="id"
          data-testid="gateway-table"
          columns={phone ? cards : columns}
          dataSource={list.data?.infos ?? []}
          rowSelection={
            mayRestart
              ? {
                  selectedRowKeys: [...picked.keys()],
                  preserveSelectedRowKeys: true,
                  columnWidth: 40,
                  onChange: (keys, rows) => {
                    const next = new Map<number, string>();
                    for (const key of keys) {
                      const id = Number(key);
                      const sn = rows.find((r) => r?.id === id)?.sn ?? picked.get(id);
                      if (sn) next.set(id, sn);
                    }
                    setPicked(next);
                  },
                  getCheckboxProps: (row) => ({
                    'aria-label': row.sn,
                    'data-testid': 'gateway-select',
                  }),
                }
              : undefined
          }
          loading={list.isFetching}
          size={phone ? 'small' : 'middle'}
          // below the width the columns need (a tablet) the table scrolls inside its card
          scroll={phone ? undefined : { x: 1100 }}
          locale={{
            emptyText: (
              <Empty description={filtered ? t('gateways.emptyFiltered') : t('gateways.empty')} />
            ),
          }}
          pagination={{
            current: query.page,
            pageSize: query.limit,
            total: list.data?.total ?? 0,
            showSizeChanger: !phone,
            pageSizeOptions: [10, 20, 50, 100],
            showTotal: (total) => t('gateways.total', { total }),
          }}
          onChange={(p) => setPage(p.current ?? 1, p.pageSize)}
        />
      )}
      {importing && (
        <ImportDialog
          mode="claim"
          onClose={() => setImporting(false)}
          onImported={() => void queryClient.invalidateQueries({ queryKey: gatewayKeys.all })}
        />
      )}
    </Card>
  );
}
