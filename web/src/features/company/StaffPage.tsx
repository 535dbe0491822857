import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Input, Tag, Typography, type TableProps } from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScopeGate, type Scope } from '@/shared/company';
import { MISSING } from '@/shared/format/number';
import { useDraft } from '@/shared/hooks/useDraft';
import { PagedTable } from '@/shared/list/PagedTable';
import { useListQuery } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { useNarrow } from '@/shared/ui/useNarrow';
import { useCurrentUser } from '@/shared/user';
import { companyInfoQuery, STAFF_FILTERS, staffQuery, type StaffMember } from './api';
import { staffRoleLabel } from './labels';
import { RowActionButtons, type RowAction } from '@/shared/ui/RowActionButtons';
import './company.css';

const StaffDialog = lazy(() => import('./StaffDialog'));
const DeleteStaffDialog = lazy(() => import('./DeleteStaffDialog'));

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; member: StaffMember }
  | { kind: 'delete'; member: StaffMember }
  | null;

const nowrap = { style: { whiteSpace: 'nowrap' as const } };

function StatusTag({ disabled, t }: { disabled: boolean; t: TFunction }) {
  return disabled ? (
    <Tag color="default">{t('company.staff.disabled')}</Tag>
  ) : (
    <Tag color="success">{t('company.staff.enabled')}</Tag>
  );
}

function StaffView({ scope }: { scope: Scope }) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const mayEdit = useCan('company.user.edit');
  const mayReadInfo = useCan('company.info');
  const me = useCurrentUser().data;
  // the administrator cannot be deleted: known from the company's details, when readable
  const info = useQuery({ ...companyInfoQuery(scope), enabled: mayReadInfo });
  const { query, list, update, setPage, filtered } = useListQuery(STAFF_FILTERS, (q) =>
    staffQuery(q, scope),
  );
  const [search, setSearch] = useDraft(query.name);
  const [dialog, setDialog] = useState<Dialog>(null);

  const isAdmin = (m: StaffMember) => info.data?.adminId != null && m.id === info.data.adminId;
  // the server refuses these too: nobody changes their own access, and only an internal
  // administrator changes the company administrator's
  const accessLock = (m: StaffMember) =>
    m.id === me?.id
      ? t('company.staff.ownRole')
      : isAdmin(m) && me?.type !== 'internal'
        ? t('company.staff.adminLocked')
        : undefined;

  const actions = (m: StaffMember): RowAction[] => {
    if (!mayEdit) return [];
    const self = m.id === me?.id;
    const admin = isAdmin(m);
    return [
      {
        key: 'edit',
        label: t('company.staff.edit'),
        icon: <EditOutlined />,
        onClick: () => setDialog({ kind: 'edit', member: m }),
      },
      {
        key: 'delete',
        label: t('company.staff.delete'),
        icon: <DeleteOutlined />,
        danger: true,
        disabledReason: self
          ? t('company.staff.notSelf')
          : admin
            ? t('company.staff.notAdmin')
            : undefined,
        onClick: () => setDialog({ kind: 'delete', member: m }),
      },
    ];
  };

  const columns: NonNullable<TableProps<StaffMember>['columns']> = [
    {
      key: 'account',
      title: t('company.staff.account'),
      onHeaderCell: () => nowrap,
      render: (_, m) => (
        <div style={{ minWidth: 0 }}>
          <span className="company-cell-main" data-testid="staff-account">
            {m.account}
          </span>
          {m.id === me?.id && (
            <Tag style={{ marginInlineStart: 6 }} color="blue">
              {t('company.you')}
            </Tag>
          )}
          {phone && (
            <Typography.Text type="secondary" className="company-cell-sub">
              {[m.nickname || m.name, m.roleName ? staffRoleLabel(m.roleName, t) : '']
                .filter(Boolean)
                .join(' · ')}
              {m.disabled ? ` · ${t('company.staff.disabled')}` : ''}
            </Typography.Text>
          )}
        </div>
      ),
    },
  ];
  if (!phone) {
    columns.push(
      {
        key: 'nickname',
        title: t('company.staff.nickname'),
        render: (_, m) => m.nickname || MISSING,
      },
      { key: 'name', title: t('company.staff.name'), render: (_, m) => m.name || MISSING },
      {
        key: 'role',
        title: t('company.staff.role'),
        onCell: () => nowrap,
        render: (_, m) => <span data-testid="staff-role">{staffRoleLabel(m.roleName, t)}</span>,
      },
      {
        key: 'contact',
        title: t('company.staff.contact'),
        render: (_, m) =>
          m.email || m.mobile ? (
            <div>
              {m.email && <div style={{ overflowWrap: 'anywhere' }}>{m.email}</div>}
              {m.mobile && <div>{m.mobile}</div>}
            </div>
          ) : (
            MISSING
          ),
      },
      {
        key: 'status',
        title: t('company.staff.status'),
        onCell: () => nowrap,
        render: (_, m) => <StatusTag disabled={m.disabled} t={t} />,
      },
      {
        key: 'createAt',
        title: t('company.field.createAt'),
        onHeaderCell: () => nowrap,
        onCell: () => nowrap,
        render: (_, m) => (m.createAt ? dayjs(m.createAt).format('YYYY-MM-DD') : MISSING),
      },
    );
  }
  if (mayEdit) {
    columns.push({
      key: 'actions',
      title: phone ? '' : t('company.actions'),
      align: 'right',
      width: phone ? 48 : 96,
      render: (_, m) => (
        <RowActionButtons actions={actions(m)} compact={phone} menuLabel={t('company.actions')} />
      ),
    });
  }

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="staff-title">
          {t('company.staff.title')}
        </Typography.Title>
      }
      extra={
        mayEdit && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDialog({ kind: 'add' })}
            data-testid="staff-add"
          >
            {t('company.staff.add')}
          </Button>
        )
      }
    >
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('company.staff.search')}
          aria-label={t('company.staff.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(v) => update({ name: v })}
          style={{ width: phone ? '100%' : 280 }}
          data-testid="staff-search"
        />
      </Flex>
      <PagedTable<StaffMember>
        list={list}
        page={query.page}
        limit={query.limit}
        onPage={setPage}
        columns={columns}
        testId="staff-table"
        errorTestId="staff-error"
        loadFailed={t('company.staff.loadFailed')}
        empty={filtered ? t('company.staff.noMatch') : t('company.staff.empty')}
        total={(total) => t('company.total', { total })}
        compact={phone}
      />
      <Suspense fallback={null}>
        {dialog?.kind === 'add' && <StaffDialog scope={scope} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'edit' && (
          <StaffDialog
            scope={scope}
            member={dialog.member}
            accessLocked={accessLock(dialog.member)}
            onClose={() => setDialog(null)}
          />
        )}
        {dialog?.kind === 'delete' && (
          <DeleteStaffDialog member={dialog.member} onClose={() => setDialog(null)} />
        )}
      </Suspense>
    </Card>
  );
}

/** Company / Staff: the company's accounts, their roles; add, edit, delete (company.user.edit). */
export default function StaffPage() {
  return <ScopeGate>{(scope) => <StaffView scope={scope} />}</ScopeGate>;
}
