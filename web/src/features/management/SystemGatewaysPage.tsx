import {
  DeleteOutlined,
  DownloadOutlined,
  PlusOutlined,
  UnorderedListOutlined,
  UploadOutlined,
  UserSwitchOutlined,
} from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Badge,
  Button,
  Card,
  Flex,
  Input,
  Segmented,
  Tag,
  Typography,
  type TableProps,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { gatewayKeys, plantKeys } from '@/shared/api/keys';
import { MISSING } from '@/shared/format/number';
import { ImportDialog } from '@/shared/gatewayImport';
import { useDraft } from '@/shared/hooks/useDraft';
import { isApiError } from '@/shared/http';
import { PagedTable } from '@/shared/list/PagedTable';
import { useListQuery } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { RowActionButtons } from '@/shared/ui/RowActionButtons';
import { useMediaQuery, useNarrow } from '@/shared/ui/useNarrow';
import {
  deleteGateway,
  downloadSysGateways,
  PLACES,
  SYS_GATEWAY_FILTERS,
  sysGatewayListQuery,
  type GatewayRow,
} from './api';
import { AssignCustomerDialog } from './AssignCustomerDialog';
import { BatchDialog } from './BatchDialog';
import { RegisterDialog } from './RegisterDialog';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };
const text = (v: string | null | undefined) => (v && v.trim() ? v : MISSING);

type Dialog =
  | { kind: 'register' }
  | { kind: 'batch' }
  | { kind: 'import' }
  | { kind: 'customer'; gateway: GatewayRow };

/**
 * management/gateway: every gateway of the portal (internal administrators): where the fleet's
 * gateways enter before installers bind them. Registering, importing, assigning a customer,
 * exporting and deleting need sys.gateway.edit.
 */
export default function SystemGatewaysPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const phone = useNarrow();
  const desktop = useMediaQuery('(min-width: 1200px)');
  const mayEdit = useCan('sys.gateway.edit');
  const mayExport = useCan('gateway.export') || mayEdit;
  const mayOpen = useCan('gateway.view');
  const { query, list, update, setPage, filtered } = useListQuery(
    SYS_GATEWAY_FILTERS,
    sysGatewayListQuery,
  );
  const [keyword, setKeyword] = useDraft(query.keyword);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [downloading, setDownloading] = useState(false);
  const [customerLabel, setCustomerLabel] = useState<string | null>(null);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: gatewayKeys.all });
    await queryClient.invalidateQueries({ queryKey: plantKeys.allGateways });
  };

  const remove = useMutation({
    mutationFn: (g: GatewayRow) => deleteGateway(g.id),
    onSuccess: async () => {
      message.success(t('sysGateways.delete.done'));
      await refresh();
    },
    onError: (e) => message.error(isApiError(e) ? e.message : t('sysGateways.failed')),
  });
  const confirmDelete = (g: GatewayRow) =>
    modal.confirm({
      title: t('sysGateways.delete.title', { sn: g.sn }),
      content: t('sysGateways.delete.text'),
      okText: t('sysGateways.delete.ok'),
      okButtonProps: { danger: true, 'data-testid': 'delete-ok' },
      cancelText: t('common.cancel'),
      onOk: () => remove.mutateAsync(g).catch(() => undefined),
    });

  const download = () => {
    setDownloading(true);
    downloadSysGateways(query)
      .catch((e: unknown) => message.error(isApiError(e) ? e.message : t('sysGateways.failed')))
      .finally(() => setDownloading(false));
  };

  const status = (g: GatewayRow) => (
    <Badge
      status={g.online ? 'success' : 'default'}
      text={t(g.online ? 'gateways.status.online' : 'gateways.status.offline')}
      data-testid="gateway-online"
    />
  );
  const plant = (g: GatewayRow) =>
    g.plantId ? (
      <span data-testid="gateway-plant">{text(g.plantName)}</span>
    ) : (
      <Typography.Text type="secondary" data-testid="gateway-plant">
        {t('sysGateways.inStock')}
      </Typography.Text>
    );
  const customerName = (g: GatewayRow) => g.customerName ?? g.customer?.nickname ?? null;
  // a customer's name narrows the list to that customer's gateways
  const customer = (g: GatewayRow) =>
    g.customerId !== null && customerName(g) ? (
      <Typography.Link
        onClick={() => {
          setCustomerLabel(customerName(g));
          update({ customerId: g.customerId });
        }}
      >
        {customerName(g)}
      </Typography.Link>
    ) : (
      MISSING
    );

  const columns: NonNullable<TableProps<GatewayRow>['columns']> = [
    {
      key: 'sn',
      title: t('gateways.column.sn'),
      render: (_, g) => (
        <Flex vertical>
          {mayOpen ? (
            <Link to={`/device/gateway/${g.id}`} data-testid="gateway-sn">
              {g.sn}
            </Link>
          ) : (
            <Typography.Text strong data-testid="gateway-sn">
              {g.sn}
            </Typography.Text>
          )}
          {g.model && <Typography.Text type="secondary">{g.model}</Typography.Text>}
          {phone && <span>{status(g)}</span>}
          {phone && plant(g)}
        </Flex>
      ),
    },
  ];
  if (!phone) {
    columns.push(
      {
        key: 'status',
        title: t('gateways.column.status'),
        onHeaderCell: () => nowrap,
        onCell: () => nowrap,
        render: (_, g) => status(g),
      },
      {
        key: 'link',
        title: t('sysGateways.column.link'),
        render: (_, g) => (
          <Flex vertical>
            <span>{text(g.commTypeName)}</span>
            <Typography.Text type="secondary">{text(g.proto)}</Typography.Text>
          </Flex>
        ),
      },
      {
        key: 'versions',
        title: t('sysGateways.column.versions'),
        render: (_, g) => (
          <Flex vertical>
            <span title={t('gateways.column.softVer')}>{text(g.softVer)}</span>
            <Typography.Text type="secondary" title={t('gateways.column.hardVer')}>
              {text(g.hardVer)}
            </Typography.Text>
          </Flex>
        ),
      },
      { key: 'plant', title: t('gateways.column.plant'), render: (_, g) => plant(g) },
      {
        key: 'customer',
        title: t('gateways.column.customer'),
        render: (_, g) => <span data-testid="gateway-customer">{customer(g)}</span>,
      },
    );
  }
  if (desktop) {
    columns.push({
      key: 'createAt',
      title: t('sysGateways.column.created'),
      onHeaderCell: () => nowrap,
      onCell: () => nowrap,
      render: (_, g) => dayjs(g.createAt).format('YYYY-MM-DD'),
    });
  }
  if (mayEdit) {
    columns.push({
      key: 'actions',
      title: phone ? '' : t('sysGateways.actions'),
      align: phone ? 'right' : 'left',
      onHeaderCell: () => nowrap,
      onCell: () => nowrap,
      render: (_, g) => {
        const bound = g.plantId !== null;
        // the registry keeps a gateway someone holds as stock: free it first (Assign customer)
        const held = !bound && g.customerId !== null;
        return (
          <RowActionButtons
            compact={phone}
            menuLabel={t('sysGateways.actions')}
            actions={[
              {
                key: 'customer',
                label: t('sysGateways.customer.action'),
                icon: <UserSwitchOutlined />,
                disabledReason: bound ? t('sysGateways.customer.bound') : undefined,
                onClick: () => setDialog({ kind: 'customer', gateway: g }),
              },
              {
                key: 'delete',
                label: t('sysGateways.delete.action'),
                icon: <DeleteOutlined />,
                danger: true,
                disabledReason: bound
                  ? t('sysGateways.delete.bound')
                  : held
                    ? t('sysGateways.delete.held')
                    : undefined,
                onClick: () => confirmDelete(g),
              },
            ]}
          />
        );
      },
    });
  }

  const registerButton = (testId: string) => (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => setDialog({ kind: 'register' })}
      data-testid={testId}
    >
      {t('sysGateways.register.action')}
    </Button>
  );

  return (
    <Card
      // The actions wrap under the title on a narrow screen rather than push the page wide.
      styles={{ title: { whiteSpace: 'normal', overflow: 'visible', padding: '12px 0' } }}
      title={
        <Flex gap={12} wrap align="center" justify="space-between">
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="sys-gateways-title">
            {t('sysGateways.title')}
          </Typography.Title>
          <Flex gap={8} wrap>
            {mayEdit && registerButton('sys-gateway-register')}
            {mayEdit && (
              <Button
                icon={<UnorderedListOutlined />}
                onClick={() => setDialog({ kind: 'batch' })}
                data-testid="sys-gateway-batch"
              >
                {t('sysGateways.batch.action')}
              </Button>
            )}
            {mayEdit && (
              <Button
                icon={<UploadOutlined />}
                onClick={() => setDialog({ kind: 'import' })}
                data-testid="sys-gateway-import"
              >
                {t('sysGateways.import.action')}
              </Button>
            )}
            {mayExport && (
              <Button
                icon={<DownloadOutlined />}
                loading={downloading}
                onClick={download}
                data-testid="sys-gateway-export"
              >
                {t('sysGateways.export')}
              </Button>
            )}
          </Flex>
        </Flex>
      }
    >
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <Segmented
          data-testid="sys-gateway-place"
          value={query.place}
          onChange={(place) => update({ place })}
          options={PLACES.map((p) => ({ value: p, label: t(`sysGateways.place.${p}`) }))}
        />
        <Input.Search
          allowClear
          placeholder={t('sysGateways.search')}
          aria-label={t('sysGateways.search')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => update({ keyword: v })}
          style={{ width: phone ? '100%' : 280 }}
          data-testid="sys-gateway-search"
        />
        {query.customerId !== null && (
          <Tag
            closable
            onClose={() => update({ customerId: null })}
            style={{ alignSelf: 'center' }}
            data-testid="sys-gateway-customer-filter"
          >
            {t('sysGateways.customerFilter', { name: customerLabel ?? `#${query.customerId}` })}
          </Tag>
        )}
      </Flex>
      <PagedTable<GatewayRow>
        list={list}
        page={query.page}
        limit={query.limit}
        onPage={setPage}
        columns={columns}
        testId="sys-gateway-table"
        errorTestId="sys-gateways-error"
        loadFailed={t('sysGateways.loadFailed')}
        empty={filtered ? t('sysGateways.emptyFiltered') : t('sysGateways.empty')}
        emptyAction={mayEdit && !filtered && registerButton('sys-gateway-register-empty')}
        total={(total) => t('sysGateways.total', { total })}
        compact={phone}
      />
      {dialog?.kind === 'register' && (
        <RegisterDialog onClose={() => setDialog(null)} onDone={() => void refresh()} />
      )}
      {dialog?.kind === 'batch' && (
        <BatchDialog onClose={() => setDialog(null)} onDone={() => void refresh()} />
      )}
      {dialog?.kind === 'import' && (
        <ImportDialog
          mode="register"
          onClose={() => setDialog(null)}
          onImported={() => void refresh()}
        />
      )}
      {dialog?.kind === 'customer' && (
        <AssignCustomerDialog
          gateway={dialog.gateway}
          onClose={() => setDialog(null)}
          onDone={() => void refresh()}
        />
      )}
    </Card>
  );
}
