import { ListCard } from '@/shared/list/ListCard';
import {
  CheckCircleOutlined,
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
  StopOutlined,
} from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Flex, Tag, TreeSelect, Typography, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ScopeGate, type Scope } from '@/shared/company';
import { MISSING } from '@/shared/format/number';
import { useDraft } from '@/shared/hooks/useDraft';
import { PagedTable } from '@/shared/list/PagedTable';
import { useListQuery } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { actionsColumn } from '@/shared/ui/actionsColumn';
import { useMediaQuery, useNarrow } from '@/shared/ui/useNarrow';
import {
  CUSTOMER_FILTERS,
  customerListQuery,
  customerTypeOptionsQuery,
  removeCustomer,
  setOwnerDisabled,
  type Customer,
} from './api';
import { useInvalidateCustomers } from './checks';
import { CustomerDialog } from './CustomerDialog';
import { PendingOffers } from './PendingOffers';
import { optionTree } from './tree';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };

/** The person behind an account: nickname, else name. */
const personOf = (c: Customer) => c.nickname || c.name;

/**
 * customer/list: the company's customers (owner accounts) with their type and plants. Adding
 * one (by account), editing its type and remark, and removing it need customer.edit. An
 * internal administrator names the company with `?companyId=`, and may also disable or enable
 * the owner's account (its sessions end at once).
 */
export default function CustomerListPage() {
  const { t } = useTranslation();
  return (
    <ScopeGate failedTitle={t('customers.loadFailed')}>
      {(scope) => <CustomerListView scope={scope} />}
    </ScopeGate>
  );
}

function CustomerListView({ scope }: { scope: Scope }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const phone = useNarrow();
  const desktop = useMediaQuery('(min-width: 1200px)');
  const wide = useMediaQuery('(min-width: 1600px)');
  const mayEdit = useCan('customer.edit');
  const { query, list, update, setPage, filtered } = useListQuery(CUSTOMER_FILTERS, (q) =>
    customerListQuery(q, scope),
  );
  const [search, setSearch] = useDraft(query.name);
  const types = useQuery(customerTypeOptionsQuery(scope));
  const typeTree = useMemo(() => optionTree(types.data ?? []), [types.data]);
  const [dialog, setDialog] = useState<{ customer?: Customer } | null>(null);
  const invalidate = useInvalidateCustomers();

  const remove = useMutation({
    mutationFn: (c: Customer) => removeCustomer(c.id, scope),
    onSuccess: async () => {
      message.success(t('customers.removed'));
      await invalidate();
    },
  });
  // Only internal administrators name a company (the scope), and only they may disable owners.
  const mayDisable = mayEdit && scope !== undefined;
  const toggle = useMutation({
    mutationFn: (c: Customer) => setOwnerDisabled(c.userId, !c.disabled),
    onSuccess: async (_, c) => {
      message.success(t(c.disabled ? 'abuse.enabled' : 'abuse.disabled'));
      await invalidate();
    },
  });
  const confirmToggle = (c: Customer) =>
    modal.confirm({
      title: t(c.disabled ? 'abuse.enableTitle' : 'abuse.disableTitle', { account: c.account }),
      content: t(c.disabled ? 'abuse.enableText' : 'abuse.disableText'),
      okText: t(c.disabled ? 'abuse.enable' : 'abuse.disable'),
      okButtonProps: { danger: !c.disabled, 'data-testid': 'customer-toggle-ok' },
      cancelText: t('common.cancel'),
      onOk: () => toggle.mutateAsync(c),
    });
  const confirmRemove = (c: Customer) =>
    modal.confirm({
      title: t('customers.removeTitle', { account: c.account }),
      content: t('customers.removeText'),
      okText: t('customers.remove'),
      okButtonProps: { danger: true, 'data-testid': 'customer-remove-ok' },
      cancelText: t('common.cancel'),
      onOk: () => remove.mutateAsync(c),
    });

  const columns: NonNullable<TableProps<Customer>['columns']> = [
    {
      key: 'account',
      title: t('customers.account'),
      // an e-mail address breaks only on a phone (where it may not fit otherwise)
      onCell: () => (phone ? {} : nowrap),
      render: (_, c) => (
        <Flex vertical>
          <Typography.Text strong data-testid="customer-row-account">
            {c.account}
            {c.disabled && (
              <Tag color="red" style={{ marginInlineStart: 8 }} data-testid="customer-disabled">
                {t('abuse.disabledTag')}
              </Tag>
            )}
          </Typography.Text>
          {personOf(c) && <Typography.Text type="secondary">{personOf(c)}</Typography.Text>}
          {phone && c.typeName && (
            <span>
              <Tag>{c.typeName}</Tag>
            </span>
          )}
        </Flex>
      ),
    },
  ];
  if (!phone) {
    columns.push({
      key: 'type',
      title: t('customers.type'),
      onHeaderCell: () => nowrap,
      render: (_, c) => (c.typeName ? <Tag>{c.typeName}</Tag> : MISSING),
    });
  }
  if (wide) {
    columns.push({
      key: 'contact',
      title: t('customers.contact'),
      render: (_, c) =>
        c.email || c.mobile ? (
          <Flex vertical>
            {c.mobile && <span>{c.mobile}</span>}
            {c.email && <span>{c.email}</span>}
          </Flex>
        ) : (
          MISSING
        ),
    });
  }
  if (desktop) {
    columns.push({
      key: 'remark',
      title: t('customers.remark'),
      ellipsis: true,
      width: 220,
      render: (_, c) => c.remark || MISSING,
    });
  }
  columns.push({
    key: 'plants',
    title: t('customers.plants'),
    align: 'right',
    onHeaderCell: () => nowrap,
    onCell: () => nowrap,
    render: (_, c) =>
      c.plants > 0 ? (
        <Link
          to={`/plants?customerId=${c.userId}`}
          data-testid="customer-plants"
          title={t('customers.plantsLink')}
        >
          {c.plants}
        </Link>
      ) : (
        <span data-testid="customer-plants">0</span>
      ),
  });
  if (desktop) {
    columns.push({
      key: 'createAt',
      title: t('customers.created'),
      onHeaderCell: () => nowrap,
      onCell: () => nowrap,
      render: (_, c) => dayjs(c.createAt).format('YYYY-MM-DD'),
    });
  }
  if (mayEdit) {
    columns.push(
      actionsColumn<Customer>(t('customers.actions'), phone, (c) => [
        {
          key: 'edit',
          label: t('customers.edit'),
          icon: <EditOutlined />,
          onClick: () => setDialog({ customer: c }),
        },
        ...(mayDisable
          ? [
              {
                key: 'toggle',
                label: t(c.disabled ? 'abuse.enable' : 'abuse.disable'),
                icon: c.disabled ? <CheckCircleOutlined /> : <StopOutlined />,
                danger: !c.disabled,
                onClick: () => confirmToggle(c),
              },
            ]
          : []),
        {
          key: 'remove',
          label: t('customers.remove'),
          icon: <DeleteOutlined />,
          danger: true,
          onClick: () => confirmRemove(c),
        },
      ]),
    );
  }

  const addButton = (testId: string) => (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => setDialog({})}
      data-testid={testId}
    >
      {t('customers.add')}
    </Button>
  );

  return (
    <Flex vertical gap={16}>
      <PendingOffers scope={scope} mayEdit={mayEdit} />
      <ListCard
        title={t('customers.title')}
        titleTestId="customers-title"
        extra={mayEdit && addButton('customer-add')}
        search={{
          placeholder: t('customers.search'),
          value: search,
          onChange: setSearch,
          onSearch: (v) => update({ name: v }),
          width: 260,
          testId: 'customer-search',
        }}
        filters={
          <>
            <TreeSelect
              allowClear
              showSearch
              treeDefaultExpandAll
              treeNodeFilterProp="title"
              aria-label={t('customers.type')}
              placeholder={t('customers.anyType')}
              value={query.typeId ?? undefined}
              onChange={(typeId?: number) => update({ typeId: typeId ?? null })}
              treeData={typeTree}
              loading={types.isPending}
              notFoundContent={t('customers.noTypes')}
              style={{ width: phone ? '100%' : 220 }}
              data-testid="customer-type-filter"
            />
          </>
        }
      >
        <PagedTable<Customer>
          list={list}
          page={query.page}
          limit={query.limit}
          onPage={setPage}
          columns={columns}
          testId="customer-table"
          errorTestId="customers-error"
          loadFailed={t('customers.loadFailed')}
          empty={filtered ? t('customers.emptyFiltered') : t('customers.empty')}
          emptyAction={mayEdit && !filtered && addButton('customer-add-empty')}
          total={(total) => t('customers.total', { total })}
          compact={phone}
        />
        {dialog && (
          <CustomerDialog
            customer={dialog.customer}
            scope={scope}
            onClose={() => setDialog(null)}
          />
        )}
      </ListCard>
    </Flex>
  );
}
