import {
  AppstoreOutlined,
  CloseOutlined,
  EnvironmentOutlined,
  PlusOutlined,
  ShareAltOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { customerOptionsQuery } from '@/shared/api/pickers';
import { useDraft } from '@/shared/hooks/useDraft';
import { useListQuery } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { DeferredSearch } from '@/shared/ui/DeferredSearch';
import { DeferredSegmented } from '@/shared/ui/DeferredSegmented';
import { DeferredSelect as Select } from '@/shared/ui/DeferredSelect';
import { DeferredTable } from '@/shared/ui/DeferredTable';
import { DeferredTag as Tag } from '@/shared/ui/DeferredTag';
import { AgentFilter } from '@/shared/ui/PickerFilters';
import { Problem } from '@/shared/ui/Problem';
import { STATUSES } from '@/shared/ui/status';
import { CountPill, StatusDot } from '@/shared/ui/StatusDot';
import { useMediaQuery, useNarrow } from '@/shared/ui/useNarrow';
import {
  PLANT_FILTERS,
  customerAsksQuery,
  plantFilterQuery,
  plantDetailQuery,
  plantListQuery,
  plantMapQuery,
  plantOffersQuery,
  type PlantQuery,
  type PlantRow,
} from './api';
import { overviewPath, type ListWidth } from './actions';
import { plantColumns } from './columns';
import { useLeavePlant, type PlantRef } from './useLeavePlant';
import type { RowAction } from './actions';

// Loaded when first needed: the map (Leaflet), the dialogs (forms), the read-only drawer.
const PlantMap = lazy(() => import('./PlantMap'));
const PlantDrawer = lazy(() => import('./PlantDrawer'));
// plants offered to this user (rare): their card's code loads only when there are some
const PlantOffers = lazy(() => import('./PlantOffers').then((m) => ({ default: m.PlantOffers })));
// companies asking to serve the caller (rare too)
const CustomerAsks = lazy(() => import('./CustomerAsks'));
const ShareDialog = lazy(() => import('./dialogs').then((m) => ({ default: m.ShareDialog })));
const TransferDialog = lazy(() => import('./dialogs').then((m) => ({ default: m.TransferDialog })));
const DeleteDialog = lazy(() => import('./dialogs').then((m) => ({ default: m.DeleteDialog })));

type Dialog = { kind: 'share' | 'transfer' | 'delete'; plant: PlantRef } | null;
const SORT_FIELDS: Record<string, PlantQuery['sort']> = {
  name: 'name',
  totalPower: 'totalPower',
  createAt: 'createAt',
};

const can = (row: { plantPermission?: string[] }, key: string) =>
  row.plantPermission?.includes(key) ?? false;

/** Which columns the list shows at the current window width. */
function useListWidth(): ListWidth {
  const phone = useNarrow();
  const desktop = useMediaQuery('(min-width: 1200px)');
  const wide = useMediaQuery('(min-width: 1600px)');
  return phone ? 'phone' : wide ? 'wide' : desktop ? 'desktop' : 'medium';
}

/**
 * plants: the plant list (server-side paging, search, filters, sorting) and the map view. A
 * plant's name opens its overview; editing (or, for a visitor, the read-only details) and the
 * other actions are in the row's action buttons.
 */
export default function PlantListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const width = useListWidth();
  const mayCreate = useCan('station.create');
  const [view, setView] = useState<'list' | 'map'>('list');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [detail, setDetail] = useState<number | null>(null);
  const [created, setCreated] = useState<number | null>(null);
  const leave = useLeavePlant();
  const queryClient = useQueryClient();

  // the URL keeps search, filters, sorting and page; a bare URL with the wizard's state is the
  // list as it first opens
  const { query, list, update, set } = useListQuery(PLANT_FILTERS, plantListQuery, {
    enabled: view === 'list',
  });
  const [search, setSearch] = useDraft(query.name);
  const map = useQuery({ ...plantMapQuery(query), enabled: view === 'map' });
  const filter = useQuery(plantFilterQuery);
  const offers = useQuery(plantOffersQuery);
  // companies asking to serve the caller: answered on the shared-management screen
  const asks = useQuery(customerAsksQuery);
  // the customer list's link narrows to one owner: named by account when the picker knows it
  const customers = useQuery({ ...customerOptionsQuery, enabled: query.customerId !== null });
  const customer =
    query.customerId === null
      ? null
      : (customers.data?.find((c) => c.userId === query.customerId)?.account ??
        String(query.customerId));

  // coming back from the wizard: newest first, the new plant highlighted
  const createdId = (location.state as { created?: number } | null)?.created;
  if (createdId !== undefined && createdId !== created) {
    // adjusting state while rendering: the list view (its URL is bare: newest first, no filters)
    setCreated(createdId);
    setView('list');
  }

  // edit for those who may, else the read-only details
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
  const onAction = (action: RowAction, row: PlantRow) => {
    const ref = { id: row.id, name: row.name };
    if (action === 'edit') void navigate(`/plants/edit/${row.id}`);
    else if (action === 'details') setDetail(row.id);
    else if (action === 'leave') leave(ref);
    else setDialog({ kind: action, plant: ref });
  };

  const columns = plantColumns({ t, query, width, onAction });
  const phone = width === 'phone';

  const statusOptions = [
    { value: -1, label: t('plants.filter.anyStatus') },
    ...STATUSES.map((s) => {
      const count = filter.data?.status.find((f) => f.value === s.value)?.count;
      return {
        value: s.value,
        label: (
          <Flex justify="space-between" gap={8} align="center">
            <StatusDot color={s.color} text={t(`plants.status.${s.key}`)} />
            {count !== undefined && <CountPill count={count} color="#64748b" />}
          </Flex>
        ),
      };
    }),
  ];

  const error = view === 'list' ? list.isError : map.isError;

  return (
    <Flex vertical gap={16}>
      {offers.data?.length ? (
        <Suspense fallback={null}>
          <PlantOffers />
        </Suspense>
      ) : null}
      {asks.data?.length ? (
        <Suspense fallback={null}>
          <CustomerAsks count={asks.data.length} />
        </Suspense>
      ) : null}
      <Card
        title={
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="plants-title">
            {t('plants.title')}
          </Typography.Title>
        }
        extra={
          <Flex gap={8} wrap justify="flex-end">
            <Link
              to="/shares"
              data-testid="shares-link"
              className={phone ? 'tap-icon' : undefined}
              aria-label={t('consent.filter.manage')}
              style={{ alignSelf: 'center' }}
            >
              <ShareAltOutlined /> {!phone && t('consent.filter.manage')}
            </Link>
            {mayCreate && (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => void navigate('/plant-add')}
                data-testid="add-plant"
              >
                {t('plants.add')}
              </Button>
            )}
          </Flex>
        }
      >
        <Flex gap={12} wrap justify="space-between" style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap style={phone ? { width: '100%' } : undefined}>
            <DeferredSearch
              allowClear
              placeholder={t('plants.filter.search')}
              aria-label={t('plants.filter.search')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              onSearch={(v) => update({ name: v })}
              style={{ width: phone ? '100%' : 240 }}
              data-testid="plant-search"
            />
            <Select
              aria-label={t('plants.column.status')}
              value={query.status}
              onChange={(status: number) => update({ status })}
              options={statusOptions}
              style={{ width: phone ? '100%' : 190 }}
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
              style={{ width: phone ? '100%' : 250 }}
            />
            <Select
              aria-label={t('consent.filter.label')}
              value={query.share === 1 ? 1 : 0}
              onChange={(share: number) => update({ share })}
              options={[
                { value: 0, label: t('consent.filter.all') },
                { value: 1, label: t('consent.filter.shared') },
              ]}
              style={{ width: phone ? '100%' : 170 }}
              data-testid="share-filter"
            />
            <AgentFilter
              value={query.agentCompanyId}
              onChange={(agentCompanyId) => update({ agentCompanyId })}
              width={phone ? '100%' : 220}
              label={t('plants.filter.agent')}
              placeholder={t('plants.filter.anyAgent')}
            />
            {customer !== null && (
              <Tag
                closable
                onClose={() => update({ customerId: null })}
                closeIcon={<CloseOutlined aria-label={t('plants.filter.clearCustomer')} />}
                style={{ alignSelf: 'center', marginInlineEnd: 0 }}
                data-testid="customer-filter"
              >
                {t('plants.filter.customer', { account: customer })}
              </Tag>
            )}
          </Flex>
          <DeferredSegmented
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
          <Problem
            title={t('plants.loadFailed')}
            extra={
              <Button onClick={() => void (view === 'list' ? list.refetch() : map.refetch())}>
                {t('common.refresh')}
              </Button>
            }
          />
        ) : view === 'list' ? (
          <DeferredTable<PlantRow>
            rowKey="id"
            data-testid="plant-table"
            columns={columns}
            dataSource={list.data?.infos ?? []}
            loading={list.isFetching}
            className="plant-table"
            size={phone ? 'small' : 'middle'}
            rowClassName={(row) => (row.id === created ? 'plant-row-new' : '')}
            locale={{
              emptyText: (
                <Empty
                  description={
                    query.name ||
                    query.status !== -1 ||
                    query.type !== -1 ||
                    query.agentCompanyId !== -1 ||
                    query.customerId !== null ||
                    query.share === 1
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
              showSizeChanger: !phone,
              pageSizeOptions: [10, 20, 50, 100],
              showTotal: (total) => t('plants.total', { total }),
            }}
            onChange={(pagination, _filters, sorter) => {
              const s = Array.isArray(sorter) ? sorter[0] : sorter;
              const field = SORT_FIELDS[String(s?.columnKey ?? '')];
              set({
                page: pagination.current ?? 1,
                limit: pagination.pageSize ?? query.limit,
                sort: s?.order && field ? field : 'createAt',
                order: s?.order === 'ascend' ? 'asc' : 'desc',
              });
            }}
          />
        ) : (
          <Suspense fallback={<div className="plant-map" />}>
            <PlantMap
              plants={map.data}
              loading={map.isPending}
              onOpen={openFromMap}
              onOverview={(id, type) => void navigate(overviewPath({ id, type }))}
            />
          </Suspense>
        )}
        <Suspense fallback={null}>
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
        </Suspense>
      </Card>
    </Flex>
  );
}
