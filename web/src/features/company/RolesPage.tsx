import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
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
import { ScopeGate, type Scope } from '@/shared/company';
import { isApiError } from '@/shared/http';
import { MISSING } from '@/shared/format/number';
import { useCan } from '@/shared/permissions';
import { Problem } from '@/shared/ui/Problem';
import { useNarrow } from '@/shared/ui/useNarrow';
import { useCurrentUser } from '@/shared/user';
import { companyKeys, deleteRole, MAX_ROLES, rolesQuery, type CompanyRole } from './api';
import { isOwnRole } from './labels';
import { RowActionButtons, type RowAction } from '@/shared/ui/RowActionButtons';
import './company.css';

const RoleDialog = lazy(() => import('./RoleDialog'));

type Dialog = { role: CompanyRole | null } | null;
const nowrap = { style: { whiteSpace: 'nowrap' as const } };

function RolesView({ scope }: { scope: Scope }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const phone = useNarrow();
  const mayEdit = useCan('company.role.edit');
  const me = useCurrentUser().data;
  const roles = useQuery(rolesQuery(scope));
  const [dialog, setDialog] = useState<Dialog>(null);
  const count = roles.data?.length ?? 0;
  const full = count >= MAX_ROLES;

  const remove = useMutation({
    mutationFn: (role: CompanyRole) => deleteRole(role.id),
    onSuccess: async () => {
      message.success(t('company.roles.deleted'));
      await queryClient.invalidateQueries({ queryKey: companyKeys.all });
    },
    // 800-802 are the screen's own: said as a toast here too
    onError: (e) => {
      if (isApiError(e)) message.error(e.message);
    },
  });

  const confirmDelete = (role: CompanyRole) =>
    modal.confirm({
      title: t('company.roles.deleteTitle', { name: role.name }),
      content: role.users > 0 ? t('company.roles.deleteUsers', { count: role.users }) : null,
      okText: t('company.roles.delete'),
      okButtonProps: { danger: true, 'data-testid': 'role-delete-submit' },
      cancelText: t('common.cancel'),
      onOk: () => remove.mutateAsync(role).catch(() => undefined),
    });

  const actions = (role: CompanyRole): RowAction[] => {
    if (!mayEdit) return [];
    const own = isOwnRole(role, me?.roleName) ? t('company.roles.ownRole') : undefined;
    return [
      {
        key: 'edit',
        label: t('company.roles.edit'),
        icon: <EditOutlined />,
        disabledReason: own,
        onClick: () => setDialog({ role }),
      },
      {
        key: 'delete',
        label: t('company.roles.delete'),
        icon: <DeleteOutlined />,
        danger: true,
        disabledReason: own,
        onClick: () => confirmDelete(role),
      },
    ];
  };

  const columns: NonNullable<TableProps<CompanyRole>['columns']> = [
    {
      key: 'name',
      title: t('company.roles.name'),
      onHeaderCell: () => nowrap,
      render: (_, r) => (
        <div>
          <span className="company-cell-main" data-testid="role-name-cell">
            {r.name}
          </span>
          {isOwnRole(r, me?.roleName) && (
            <Tag color="blue" style={{ marginInlineStart: 6 }}>
              {t('company.roles.yours')}
            </Tag>
          )}
          {phone && (
            <Typography.Text type="secondary" className="company-cell-sub">
              {t('company.roles.summary', { permissions: r.permissions.length, users: r.users })}
            </Typography.Text>
          )}
        </div>
      ),
    },
  ];
  if (!phone) {
    columns.push(
      {
        key: 'permissions',
        title: t('company.roles.permissions'),
        align: 'right',
        onHeaderCell: () => nowrap,
        render: (_, r) => r.permissions.length,
      },
      {
        key: 'users',
        title: t('company.roles.users'),
        align: 'right',
        onHeaderCell: () => nowrap,
        render: (_, r) => r.users,
      },
      {
        key: 'createAt',
        title: t('company.field.createAt'),
        onHeaderCell: () => nowrap,
        onCell: () => nowrap,
        render: (_, r) => (r.createAt ? dayjs(r.createAt).format('YYYY-MM-DD') : MISSING),
      },
    );
  }
  if (mayEdit) {
    columns.push({
      key: 'actions',
      title: phone ? '' : t('company.actions'),
      align: 'right',
      width: phone ? 48 : 96,
      render: (_, r) => (
        <RowActionButtons actions={actions(r)} compact={phone} menuLabel={t('company.actions')} />
      ),
    });
  }

  const addButton = mayEdit && (
    <Tooltip title={full ? t('company.roles.full', { max: MAX_ROLES }) : undefined}>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        disabled={!roles.data || full}
        onClick={() => setDialog({ role: null })}
        data-testid="role-add"
      >
        {t('company.roles.add')}
      </Button>
    </Tooltip>
  );

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="roles-title">
          {t('company.roles.title')}
        </Typography.Title>
      }
      extra={
        <Space wrap>
          {roles.data && (
            <Typography.Text type="secondary" data-testid="role-count">
              {t('company.roles.count', { count, max: MAX_ROLES })}
            </Typography.Text>
          )}
          {addButton}
        </Space>
      }
    >
      {roles.isError ? (
        <Problem
          title={t('company.roles.loadFailed')}
          testId="roles-error"
          extra={<Button onClick={() => void roles.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <Table<CompanyRole>
          rowKey="id"
          size={phone ? 'small' : 'middle'}
          data-testid="roles-table"
          loading={roles.isPending}
          columns={columns}
          dataSource={roles.data ?? []}
          pagination={false}
          locale={{ emptyText: <Empty description={t('company.roles.empty')} /> }}
        />
      )}
      {dialog && (
        <Suspense fallback={null}>
          <RoleDialog
            scope={scope}
            role={dialog.role}
            taken={(roles.data ?? []).map((r) => r.name)}
            onClose={() => setDialog(null)}
          />
        </Suspense>
      )}
    </Card>
  );
}

/** Company / Roles: the company's custom roles (at most 5) and what each may do. */
export default function RolesPage() {
  return <ScopeGate>{(scope) => <RolesView scope={scope} />}</ScopeGate>;
}
