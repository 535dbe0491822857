import { DeleteOutlined, EditOutlined, PlusOutlined, SubnodeOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Flex, Table, Typography, type TableProps } from 'antd';
import { useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ScopeGate, scopedPath, type Scope } from '@/shared/company';
import { isApiError } from '@/shared/http';
import { MISSING } from '@/shared/format/number';
import { useCan } from '@/shared/permissions';
import { Problem } from '@/shared/ui/Problem';
import { RowActionButtons } from '@/shared/ui/RowActionButtons';
import { useMediaQuery, useNarrow } from '@/shared/ui/useNarrow';
import { customerKeys, customerTypeTreeQuery, deleteCustomerType, deleteRefusalKey } from './api';
import { blockedDeletion } from './checks';
import { CustomerTypeDialog, type TypeDialogTarget } from './CustomerTypeDialog';
import { countTypes, parentIds, tableTree, type TypeRow } from './tree';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };

/**
 * customer/type: the company's customer types as a tree table. Adding (at the top or under a
 * type), editing and deleting need customer.type.edit; a type with subtypes or customers stays.
 * An internal administrator names the company with `?companyId=`.
 */
export default function CustomerTypesPage() {
  const { t } = useTranslation();
  return (
    <ScopeGate failedTitle={t('customerTypes.loadFailed')}>
      {(scope) => <CustomerTypesView scope={scope} />}
    </ScopeGate>
  );
}

function CustomerTypesView({ scope }: { scope: Scope }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const phone = useNarrow();
  const wide = useMediaQuery('(min-width: 1200px)');
  const mayEdit = useCan('customer.type.edit');
  const tree = useQuery(customerTypeTreeQuery(scope));
  const rows = useMemo(() => tableTree(tree.data ?? []), [tree.data]);
  // the whole tree opens at first; the user's own choice afterwards
  const [expanded, setExpanded] = useState<readonly Key[] | null>(null);
  const [dialog, setDialog] = useState<TypeDialogTarget | null>(null);

  const remove = useMutation({
    mutationFn: (row: TypeRow) => deleteCustomerType(row.id, scope),
    onSuccess: async () => {
      message.success(t('customerTypes.deleted'));
      await queryClient.invalidateQueries({ queryKey: customerKeys.all });
    },
    onError: (e) => {
      const key = deleteRefusalKey(e);
      message.error(key ? t(key) : isApiError(e) ? e.message : t('errors.requestError'));
    },
  });

  const confirmDelete = (row: TypeRow) => {
    const blocked = blockedDeletion(row);
    if (blocked) {
      modal.warning({
        title: t('customerTypes.deleteTitle', { name: row.name }),
        content: t(blocked),
        okText: t('common.confirm'),
      });
      return;
    }
    modal.confirm({
      title: t('customerTypes.deleteTitle', { name: row.name }),
      content: t('customerTypes.deleteText'),
      okText: t('customerTypes.delete'),
      okButtonProps: { danger: true, 'data-testid': 'type-delete-ok' },
      cancelText: t('common.cancel'),
      // a refusal is shown by the mutation; the dialog closes either way
      onOk: () => remove.mutateAsync(row).catch(() => undefined),
    });
  };

  const columns: NonNullable<TableProps<TypeRow>['columns']> = [
    {
      key: 'name',
      title: t('customerTypes.name'),
      render: (_, row) => (
        <span data-testid="type-row-name">
          <Typography.Text strong>{row.name}</Typography.Text>
          {phone && <Typography.Text type="secondary"> ({row.code})</Typography.Text>}
        </span>
      ),
    },
  ];
  if (!phone) {
    columns.push({
      key: 'code',
      title: t('customerTypes.code'),
      onHeaderCell: () => nowrap,
      onCell: () => nowrap,
      render: (_, row) => <Typography.Text code>{row.code}</Typography.Text>,
    });
    columns.push({
      key: 'remark',
      title: t('customerTypes.remark'),
      ellipsis: true,
      width: wide ? 320 : 200,
      render: (_, row) => row.remark || MISSING,
    });
  }
  columns.push({
    key: 'customers',
    title: t('customerTypes.customers'),
    align: 'right',
    onHeaderCell: () => nowrap,
    onCell: () => nowrap,
    // the count opens the customer list filtered by the type
    render: (_, row) =>
      row.customers > 0 ? (
        <Link
          to={scopedPath(`/customer/list?typeId=${row.id}`, scope)}
          data-testid="type-row-customers"
        >
          {row.customers}
        </Link>
      ) : (
        <span data-testid="type-row-customers">0</span>
      ),
  });
  if (mayEdit) {
    columns.push({
      key: 'actions',
      title: phone ? '' : t('customerTypes.actions'),
      align: phone ? 'right' : 'left',
      onHeaderCell: () => nowrap,
      onCell: () => nowrap,
      render: (_, row) => (
        <RowActionButtons
          compact={phone}
          menuLabel={t('customerTypes.actions')}
          actions={[
            {
              key: 'add-child',
              label: t('customerTypes.addChild'),
              icon: <SubnodeOutlined />,
              onClick: () => setDialog({ kind: 'add', parentId: row.id }),
            },
            {
              key: 'edit',
              label: t('customerTypes.edit'),
              icon: <EditOutlined />,
              onClick: () => setDialog({ kind: 'edit', type: row }),
            },
            {
              key: 'delete',
              label: t('customerTypes.delete'),
              icon: <DeleteOutlined />,
              danger: true,
              onClick: () => confirmDelete(row),
            },
          ]}
        />
      ),
    });
  }

  const addButton = (testId: string) => (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => setDialog({ kind: 'add', parentId: null })}
      data-testid={testId}
    >
      {t('customerTypes.add')}
    </Button>
  );

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="customer-types-title">
          {t('customerTypes.title')}
        </Typography.Title>
      }
      extra={mayEdit && addButton('type-add')}
    >
      {tree.isError ? (
        <Problem
          title={t('customerTypes.loadFailed')}
          testId="customer-types-error"
          extra={<Button onClick={() => void tree.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <Flex vertical gap={8}>
          <Table<TypeRow>
            rowKey="id"
            data-testid="type-table"
            columns={columns}
            dataSource={rows}
            loading={tree.isFetching}
            size={phone ? 'small' : 'middle'}
            pagination={false}
            indentSize={phone ? 12 : 20}
            expandable={{
              expandedRowKeys: expanded ?? parentIds(rows),
              onExpandedRowsChange: (keys) => setExpanded(keys),
            }}
            locale={{
              emptyText: (
                <Empty description={t('customerTypes.empty')}>
                  {mayEdit && addButton('type-add-empty')}
                </Empty>
              ),
            }}
          />
          {rows.length > 0 && (
            <Typography.Text type="secondary">
              {t('customerTypes.total', { total: countTypes(rows) })}
            </Typography.Text>
          )}
        </Flex>
      )}
      {dialog && (
        <CustomerTypeDialog target={dialog} scope={scope} onClose={() => setDialog(null)} />
      )}
    </Card>
  );
}
