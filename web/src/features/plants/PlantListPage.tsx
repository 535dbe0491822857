import {
  AppstoreOutlined,
  DashboardOutlined,
  DeleteOutlined,
  EditOutlined,
  EnvironmentOutlined,
  LogoutOutlined,
  PlusOutlined,
  ShareAltOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Card,
  Empty,
  Flex,
  Image,
  Input,
  Result,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableProps,
} from 'antd';
import dayjs from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { formatCompact, formatNumber, MISSING } from '@/shared/format/number';
import { useCan } from '@/shared/permissions';
import {
  DEFAULT_QUERY,
  PLANT_STATUSES,
  plantFilterQuery,
  plantDetailQuery,
  plantListQuery,
  plantMapQuery,
  type PlantQuery,
  type PlantRow,
} from './api';
import { DeleteDialog, ShareDialog, TransferDialog } from './dialogs';
import { useLeavePlant, type PlantRef } from './useLeavePlant';
import { statusKey, STATUS_COLORS } from './mapData';
import { PlantDrawer } from './PlantDrawer';
import { PlantOffers } from './PlantOffers';

const PlantMap = lazy(() => import('./PlantMap'));

type Dialog = { kind: 'share' | 'transfer' | 'delete'; plant: PlantRef } | null;
const SORT_FIELDS: Record<string, PlantQuery['sort']> = {
  name: 'name',
  totalPower: 'totalPower',
  createAt: 'createAt',
};

const can = (row: { plantPermission?: string[] }, key: string) =>
  row.plantPermission?.includes(key) ?? false;

/** plants: the plant list (server-side paging, search, filters, sorting) and the map view. */
export default function PlantListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const mayCreate = useCan('station.create');
  const [query, setQuery] = useState<PlantQuery>(DEFAULT_QUERY);
  const [search, setSearch] = useState('');
  const [view, setView] = useState<'list' | 'map'>('list');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [detail, setDetail] = useState<number | null>(null);
  const [created, setCreated] = useState<number | null>(null);
  const leave = useLeavePlant();
  const queryClient = useQueryClient();

  const list = useQuery({ ...plantListQuery(query), enabled: view === 'list' });
  const map = useQuery({ ...plantMapQuery(query), enabled: view === 'map' });
  const filter = useQuery(plantFilterQuery);

  // coming back from the wizard: newest first, the new plant highlighted
  const createdId = (location.state as { created?: number } | null)?.created;
  if (createdId !== undefined && createdId !== created) {
    // adjusting state while rendering: newest first, no filters, the list view
    setCreated(createdId);
    setQuery(DEFAULT_QUERY);
    setSearch('');
    setView('list');
  }

  const update = (patch: Partial<PlantQuery>) => setQuery((q) => ({ ...q, page: 1, ...patch }));

  const open = (row: { id: number; plantPermission?: string[] }) => {
    if (can(row, 'station.edit')) void navigate(`/plants/edit/${row.id}`);
    else setDetail(row.id);
  };
  const openFromMap = (id: number) => {
    void queryClient
      .fetchQuery(plantDetailQuery(id))
      .then(open)
      .catch(() => setDetail(id));
  };
  // The plant overview (monitoring) of a row or a map marker.
  const overview = (row: { id: number; type: number }) =>
    void navigate(`/plants/overview/${row.id}/${row.type}`);

  const columns: TableProps<PlantRow>['columns'] = [
    {
      key: 'thumb',
      width: 96,
      title: t('plants.column.picture'),
      render: (_, row) =>
        row.thumbUrl ? (
          <Image
            src={row.thumbUrl}
            width={56}
            height={40}
            style={{ objectFit: 'cover', borderRadius: 4 }}
            alt=""
            preview={false}
          />
        ) : (
          <div className="plant-thumb-empty">
            <AppstoreOutlined />
          </div>
        ),
    },
    {
      key: 'name',
      dataIndex: 'name',
      title: t('plants.column.name'),
      width: 220,
      sorter: true,
      sortOrder: query.sort === 'name' ? (query.order === 'asc' ? 'ascend' : 'descend') : null,
      render: (_, row) => (
        <Space size={4} wrap>
          <Typography.Link onClick={() => open(row)} data-testid="plant-name">
            {row.name}
          </Typography.Link>
          {row.share && (
            <Tag color="blue" data-testid="shared-tag">
              {t('plants.shared')}
            </Tag>
          )}
          {row.offered && (
            <Tooltip title={t('plants.offer.waitingHelp')}>
              <Tag color="gold" data-testid="offered-tag">
                {t('plants.offer.waiting')}
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('plants.column.status'),
      render: (status: number) => {
        const key = statusKey(status);
        return <Badge color={STATUS_COLORS[key]} text={t(`plants.status.${key}`)} />;
      },
    },
    {
      key: 'type',
      dataIndex: 'type',
      title: t('plants.column.type'),
      render: (type: number) => t(`plants.type.${type}`, { defaultValue: MISSING }),
    },
    {
      key: 'totalPower',
      dataIndex: 'totalPower',
      title: t('plants.column.capacity'),
      align: 'right',
      sorter: true,
      sortOrder:
        query.sort === 'totalPower' ? (query.order === 'asc' ? 'ascend' : 'descend') : null,
      render: (v: number | null) => formatNumber(v),
    },
    // live figures of the plant (current PV power, today's and all-time generation)
    {
      key: 'pac',
      dataIndex: 'pac',
      title: t('overview.today.power'),
      align: 'right',
      render: (v: number | null) => <span data-testid="plant-pac">{formatCompact(v, 'W')}</span>,
    },
    {
      key: 'etoday',
      dataIndex: 'etoday',
      title: t('overview.today.energy'),
      align: 'right',
      render: (v: number | null) => (
        <span data-testid="plant-etoday">{formatCompact(v === null ? v : v * 1000, 'Wh')}</span>
      ),
    },
    {
      key: 'etotal',
      dataIndex: 'etotal',
      title: t('overview.today.total'),
      align: 'right',
      render: (v: number | null) => formatCompact(v === null ? v : v * 1000, 'Wh'),
    },
    {
      key: 'address',
      dataIndex: 'address',
      title: t('plants.column.address'),
      ellipsis: true,
      render: (v: string | null) => v || MISSING,
    },
    {
      key: 'createAt',
      dataIndex: 'createAt',
      title: t('plants.column.created'),
      width: 170,
      sorter: true,
      sortOrder: query.sort === 'createAt' ? (query.order === 'asc' ? 'ascend' : 'descend') : null,
      render: (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : MISSING),
    },
    {
      key: 'actions',
      title: t('plants.column.actions'),
      width: 180,
      fixed: 'right',
      render: (_, row) => {
        const ref = { id: row.id, name: row.name };
        const action = (
          key: string,
          icon: React.ReactNode,
          onClick: () => void,
          danger = false,
        ) => (
          <Tooltip title={t(`plants.action.${key}`)} key={key}>
            <Button
              type="text"
              size="small"
              danger={danger}
              icon={icon}
              aria-label={t(`plants.action.${key}`)}
              data-testid={`action-${key}`}
              onClick={onClick}
            />
          </Tooltip>
        );
        return (
          <Space size={0} data-testid="row-actions">
            <Tooltip title={t('overview.open')}>
              <Button
                type="text"
                size="small"
                icon={<DashboardOutlined />}
                aria-label={t('overview.open')}
                data-testid="action-overview"
                onClick={() => overview(row)}
              />
            </Tooltip>
            {can(row, 'station.edit') &&
              action('edit', <EditOutlined />, () => void navigate(`/plants/edit/${row.id}`))}
            {!row.share &&
              can(row, 'station.share') &&
              action('share', <ShareAltOutlined />, () => setDialog({ kind: 'share', plant: ref }))}
            {can(row, 'station.transfer') &&
              action('transfer', <SwapOutlined />, () =>
                setDialog({ kind: 'transfer', plant: ref }),
              )}
            {can(row, 'station.delete') &&
              action(
                'delete',
                <DeleteOutlined />,
                () => setDialog({ kind: 'delete', plant: ref }),
                true,
              )}
            {row.share &&
              can(row, 'station.share.cancle') &&
              action('leave', <LogoutOutlined />, () => leave(ref), true)}
          </Space>
        );
      },
    },
  ];

  const statusOptions = [
    { value: -1, label: t('plants.filter.anyStatus') },
    ...PLANT_STATUSES.map((s) => {
      const count = filter.data?.status.find((f) => f.value === s.value)?.count;
      return {
        value: s.value,
        label: (
          <Flex justify="space-between" gap={8} align="center">
            <Badge color={STATUS_COLORS[s.key]} text={t(`plants.status.${s.key}`)} />
            {count !== undefined && <Badge count={count} showZero color="#64748b" size="small" />}
          </Flex>
        ),
      };
    }),
  ];

  const error = view === 'list' ? list.isError : map.isError;

  return (
    <Flex vertical gap={16}>
      <PlantOffers />
      <Card
        title={
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="plants-title">
            {t('plants.title')}
          </Typography.Title>
        }
        extra={
          mayCreate && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => void navigate('/plant-add')}
              data-testid="add-plant"
            >
              {t('plants.add')}
            </Button>
          )
        }
      >
        <Flex gap={12} wrap justify="space-between" style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap>
            <Input.Search
              allowClear
              placeholder={t('plants.filter.search')}
              aria-label={t('plants.filter.search')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              onSearch={(v) => update({ name: v })}
              style={{ width: 240 }}
              data-testid="plant-search"
            />
            <Select
              aria-label={t('plants.column.status')}
              value={query.status}
              onChange={(status: number) => update({ status })}
              options={statusOptions}
              style={{ width: 190 }}
              popupMatchSelectWidth={220}
            />
            <Select
              aria-label={t('plants.column.type')}
              value={query.type}
              onChange={(type: number) => update({ type })}
              options={[
                { value: -1, label: t('plants.filter.anyType') },
                ...[1, 2, 3].map((v) => ({ value: v, label: t(`plants.type.${v}`) })),
              ]}
              style={{ width: 250 }}
            />
          </Flex>
          <Segmented
            value={view}
            onChange={(v) => setView(v as 'list' | 'map')}
            options={[
              { value: 'list', label: t('plants.view.list'), icon: <AppstoreOutlined /> },
              { value: 'map', label: t('plants.view.map'), icon: <EnvironmentOutlined /> },
            ]}
            data-testid="view-toggle"
          />
        </Flex>
        {error ? (
          <Result
            status="warning"
            title={t('plants.loadFailed')}
            extra={
              <Button onClick={() => void (view === 'list' ? list.refetch() : map.refetch())}>
                {t('common.refresh')}
              </Button>
            }
          />
        ) : view === 'list' ? (
          <Table<PlantRow>
            rowKey="id"
            data-testid="plant-table"
            columns={columns}
            dataSource={list.data?.infos ?? []}
            loading={list.isFetching}
            rowClassName={(row) => (row.id === created ? 'plant-row-new' : '')}
            scroll={{ x: 'max-content' }}
            locale={{
              emptyText: (
                <Empty
                  description={
                    query.name || query.status !== -1 || query.type !== -1
                      ? t('plants.emptyFiltered')
                      : t('plants.empty')
                  }
                >
                  {mayCreate && !query.name && (
                    <Button type="primary" onClick={() => void navigate('/plant-add')}>
                      {t('plants.add')}
                    </Button>
                  )}
                </Empty>
              ),
            }}
            pagination={{
              current: query.page,
              pageSize: query.limit,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: [10, 20, 50, 100],
              showTotal: (total) => t('plants.total', { total }),
            }}
            onChange={(pagination, _filters, sorter) => {
              const s = Array.isArray(sorter) ? sorter[0] : sorter;
              const field = SORT_FIELDS[String(s?.columnKey ?? '')];
              setQuery((q) => ({
                ...q,
                page: pagination.current ?? 1,
                limit: pagination.pageSize ?? q.limit,
                sort: s?.order && field ? field : 'createAt',
                order: s?.order === 'ascend' ? 'asc' : 'desc',
              }));
            }}
          />
        ) : (
          <Suspense fallback={<div className="plant-map" />}>
            <PlantMap
              plants={map.data}
              loading={map.isPending}
              onOpen={openFromMap}
              onOverview={(id, type) => overview({ id, type })}
            />
          </Suspense>
        )}
        {dialog?.kind === 'share' && (
          <ShareDialog plant={dialog.plant} onClose={() => setDialog(null)} />
        )}
        {dialog?.kind === 'transfer' && (
          <TransferDialog plant={dialog.plant} onClose={() => setDialog(null)} />
        )}
        {dialog?.kind === 'delete' && (
          <DeleteDialog plant={dialog.plant} onClose={() => setDialog(null)} />
        )}
        {detail !== null && <PlantDrawer id={detail} onClose={() => setDetail(null)} />}
      </Card>
    </Flex>
  );
}
