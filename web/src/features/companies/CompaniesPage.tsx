import { ListCard } from '@/shared/list/ListCard';
import {
  CheckCircleOutlined,
  EditOutlined,
  PlusOutlined,
  StopOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Flex, Typography, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MISSING } from '@/shared/format/number';
import { useDraft } from '@/shared/hooks/useDraft';
import { PagedTable } from '@/shared/list/PagedTable';
import { useListQuery } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { actionsColumn } from '@/shared/ui/actionsColumn';
import { useMediaQuery, useNarrow } from '@/shared/ui/useNarrow';
import {
  COMPANY_FILTERS,
  companyKeys,
  companyListQuery,
  setCompanyDisabled,
  type CompanyInfo,
} from './api';
import { CompanyDialog } from './CompanyDialog';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };

/**
 * management/company: every company (internal administrators), with its administrator, staff
 * and plants. Creating, editing and disabling or enabling need sys.company.edit. A company's
 * name opens its own staff screen, and the link under it its customers (both `?companyId=`).
 */
export default function CompaniesPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const phone = useNarrow();
  const desktop = useMediaQuery('(min-width: 1200px)');
  const mayEdit = useCan('sys.company.edit');
  const mayListCustomers = useCan('customer.list.view');
  const { query, list, update, setPage, filtered } = useListQuery(
    COMPANY_FILTERS,
    companyListQuery,
  );
  const [search, setSearch] = useDraft(query.name);
  const [dialog, setDialog] = useState<{ company?: CompanyInfo } | null>(null);

  const toggle = useMutation({
    mutationFn: (c: CompanyInfo) => setCompanyDisabled(c.id, !c.disabled),
    onSuccess: async (_data, c) => {
      message.success(t(c.disabled ? 'companies.enabled' : 'companies.disabledDone'));
      await queryClient.invalidateQueries({ queryKey: companyKeys.all });
    },
  });
  const confirmToggle = (c: CompanyInfo) =>
    modal.confirm({
      title: t(c.disabled ? 'companies.enableTitle' : 'companies.disableTitle', { name: c.name }),
      content: t(c.disabled ? 'companies.enableText' : 'companies.disableText'),
      okText: t(c.disabled ? 'companies.enable' : 'companies.disable'),
      okButtonProps: { danger: !c.disabled, 'data-testid': 'company-toggle-ok' },
      cancelText: t('common.cancel'),
      onOk: () => toggle.mutateAsync(c),
    });

  const status = (c: CompanyInfo) => (
    <Badge
      status={c.disabled ? 'default' : 'success'}
      text={t(c.disabled ? 'companies.status.disabled' : 'companies.status.active')}
      data-testid="company-status"
    />
  );

  const columns: NonNullable<TableProps<CompanyInfo>['columns']> = [
    {
      key: 'name',
      title: t('companies.name'),
      render: (_, c) => (
        <Flex vertical>
          <Link to={`/enterprise/user?companyId=${c.id}`} data-testid="company-row-name">
            <Typography.Text strong>{c.name}</Typography.Text>
          </Link>
          {mayListCustomers && (
            <Link
              to={`/customer/list?companyId=${c.id}`}
              aria-label={t('companies.customersOf', { name: c.name })}
              data-testid="company-row-customers"
            >
              <TeamOutlined /> {t('companies.customersLink')}
            </Link>
          )}
          {phone && <span>{status(c)}</span>}
          {phone && c.adminAccount && (
            <Typography.Text type="secondary">{c.adminAccount}</Typography.Text>
          )}
        </Flex>
      ),
    },
  ];
  if (!phone) {
    columns.push(
      {
        key: 'admin',
        title: t('companies.adminAccount'),
        render: (_, c) => c.adminAccount || MISSING,
      },
      {
        key: 'status',
        title: t('companies.statusTitle'),
        onHeaderCell: () => nowrap,
        onCell: () => nowrap,
        render: (_, c) => status(c),
      },
    );
  }
  if (desktop) {
    columns.push({
      key: 'contact',
      title: t('companies.contact'),
      render: (_, c) => {
        const lines = [c.contactName, c.phone, c.email].filter(Boolean);
        return lines.length ? (
          <Flex vertical>
            {lines.map((l) => (
              <span key={l}>{l}</span>
            ))}
          </Flex>
        ) : (
          MISSING
        );
      },
    });
  }
  columns.push({
    key: 'staff',
    title: t('companies.staff'),
    align: 'right',
    onHeaderCell: () => nowrap,
    onCell: () => nowrap,
    render: (_, c) => c.staff,
  });
  columns.push({
    key: 'plants',
    title: t('companies.plants'),
    align: 'right',
    onHeaderCell: () => nowrap,
    onCell: () => nowrap,
    render: (_, c) => c.plants,
  });
  if (desktop) {
    columns.push({
      key: 'createAt',
      title: t('companies.created'),
      onHeaderCell: () => nowrap,
      onCell: () => nowrap,
      render: (_, c) => dayjs(c.createAt).format('YYYY-MM-DD'),
    });
  }
  if (mayEdit) {
    columns.push(
      actionsColumn<CompanyInfo>(t('companies.actions'), phone, (c) => [
        {
          key: 'edit',
          label: t('companies.edit'),
          icon: <EditOutlined />,
          onClick: () => setDialog({ company: c }),
        },
        c.disabled
          ? {
              key: 'enable',
              label: t('companies.enable'),
              icon: <CheckCircleOutlined />,
              onClick: () => confirmToggle(c),
            }
          : {
              key: 'disable',
              label: t('companies.disable'),
              icon: <StopOutlined />,
              danger: true,
              onClick: () => confirmToggle(c),
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
      {t('companies.create')}
    </Button>
  );

  return (
    <ListCard
      title={t('companies.title')}
      titleTestId="companies-title"
      extra={mayEdit && addButton('company-add')}
      search={{
        placeholder: t('companies.search'),
        value: search,
        onChange: setSearch,
        onSearch: (v) => update({ name: v }),
        width: 260,
        testId: 'company-search',
      }}
    >
      <PagedTable<CompanyInfo>
        list={list}
        page={query.page}
        limit={query.limit}
        onPage={setPage}
        columns={columns}
        testId="company-table"
        errorTestId="companies-error"
        loadFailed={t('companies.loadFailed')}
        empty={filtered ? t('companies.emptyFiltered') : t('companies.empty')}
        emptyAction={mayEdit && !filtered && addButton('company-add-empty')}
        total={(total) => t('companies.total', { total })}
        compact={phone}
      />
      {dialog && <CompanyDialog company={dialog.company} onClose={() => setDialog(null)} />}
    </ListCard>
  );
}
