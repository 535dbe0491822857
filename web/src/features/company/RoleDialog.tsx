import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Form, Input, Skeleton, Tree, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
import type { Scope } from '@/shared/company';
import { codeMessage, ErrorCode, isApiError } from '@/shared/http';
import { currentLanguage } from '@/shared/i18n';
import { Problem } from '@/shared/ui/Problem';
import { GuardedModal } from '@/shared/ui/guarded';
import { formRule, requiredRule, roleName } from '@/shared/validators';
import {
  checkRoleName,
  companyKeys,
  createRole,
  grantableQuery,
  updateRole,
  type CompanyRole,
} from './api';
import { allKeys, indexTree, normalize, partial, toggle, treeItems } from './permissionTree';

/**
 * Creates a role or edits one (name and permissions). The permissions are those the caller may
 * grant, as a tree: ticking a permission ticks what it belongs to and what is under it.
 */
export default function RoleDialog({
  scope,
  role,
  taken,
  onClose,
}: {
  scope: Scope;
  role: CompanyRole | null;
  /** The company's role names (a new name must differ from all but the role's own). */
  taken: readonly string[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ name: string }>();
  const grantable = useQuery(grantableQuery(currentLanguage()));
  const items = useMemo(() => treeItems(grantable.data), [grantable.data]);
  const index = useMemo(() => indexTree(items), [items]);
  const [picked, setPicked] = useState<readonly string[] | null>(null);
  const ticked = picked ?? normalize(index, role?.permissions ?? []);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [noneTicked, setNoneTicked] = useState(false);
  const half = new Set(partial(index, ticked));
  const others = taken.filter((n) => n !== role?.name);

  const save = useMutation({
    mutationFn: (name: string): Promise<unknown> => {
      const body = { name, permissions: [...ticked] };
      return role ? updateRole(role.id, body) : createRole(body, scope);
    },
    onSuccess: async () => {
      message.success(role ? t('common.saved') : t('company.roles.created'));
      await queryClient.invalidateQueries({ queryKey: companyKeys.all });
      onClose();
    },
    onError: (e) => {
      if (isApiError(e, ErrorCode.RoleExists)) {
        form.setFields([{ name: 'name', errors: [e.message] }]);
      } else if (isApiError(e)) {
        setRefusal(e.message);
      }
    },
  });

  const submit = ({ name }: { name: string }) => {
    setRefusal(null);
    if (ticked.length === 0) {
      setNoneTicked(true);
      return;
    }
    save.mutate(name.trim());
  };

  /** On leaving the name of a new role: the server's 800/801 before anything is ticked. */
  const checkName = async () => {
    if (role) return;
    const name = String(form.getFieldValue('name') ?? '').trim();
    if (!name || roleName(name)) return;
    try {
      const code = await checkRoleName(name, scope);
      if (code === ErrorCode.RoleExists) {
        form.setFields([{ name: 'name', errors: [codeMessage(code)] }]);
      } else if (code !== null) {
        setRefusal(codeMessage(code));
      }
    } catch {
      // checked again on save
    }
  };

  const onTick = (key: string, on: boolean) => {
    setNoneTicked(false);
    setPicked(toggle(index, ticked, key, on));
  };

  return (
    <GuardedModal
      open
      title={role ? t('company.roles.editTitle', { name: role.name }) : t('company.roles.addTitle')}
      onCancel={onClose}
      okText={t('common.save')}
      okButtonProps={{
        loading: save.isPending,
        disabled: !grantable.data,
        'data-testid': 'role-submit',
      }}
      onOk={() => form.submit()}
      destroyOnHidden
      width={640}
    >
      {refusal && (
        <Alert
          type="error"
          showIcon
          title={refusal}
          style={{ marginBottom: 16 }}
          data-testid="role-refusal"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        initialValues={{ name: role?.name ?? '' }}
        onFinish={submit}
      >
        <Form.Item
          name="name"
          label={t('company.roles.name')}
          extra={t('company.roles.nameHint', { max: 5 })}
          rules={[
            requiredRule(),
            formRule(roleName),
            formRule((v) =>
              others.includes(String(v).trim()) ? { key: `errors.${ErrorCode.RoleExists}` } : null,
            ),
          ]}
        >
          <Input
            maxLength={Limits.RoleRequest.name.maxLength}
            showCount
            onBlur={() => void checkName()}
            data-testid="role-name-input"
          />
        </Form.Item>
        <Form.Item
          label={t('company.roles.permissions')}
          required
          validateStatus={noneTicked ? 'error' : undefined}
          help={noneTicked ? t('company.roles.needPermission') : undefined}
        >
          {grantable.isError ? (
            <Problem
              title={t('company.roles.treeFailed')}
              extra={
                <Button onClick={() => void grantable.refetch()}>{t('common.refresh')}</Button>
              }
            />
          ) : !grantable.data ? (
            <Skeleton active paragraph={{ rows: 6 }} />
          ) : items.length === 0 ? (
            <Typography.Text type="secondary">{t('company.roles.nothingToGrant')}</Typography.Text>
          ) : (
            <>
              <Flex gap={8} wrap style={{ marginBottom: 8 }}>
                <Button
                  size="small"
                  onClick={() => {
                    setNoneTicked(false);
                    setPicked(allKeys(index));
                  }}
                >
                  {t('company.roles.all')}
                </Button>
                <Button size="small" onClick={() => setPicked([])}>
                  {t('company.roles.none')}
                </Button>
                <Typography.Text type="secondary" style={{ alignSelf: 'center' }}>
                  {t('company.roles.ticked', { count: ticked.length })}
                </Typography.Text>
              </Flex>
              <div
                className="role-tree"
                style={{ maxHeight: '45vh', overflowY: 'auto' }}
                data-testid="role-tree"
              >
                <Tree
                  checkable
                  checkStrictly
                  selectable={false}
                  defaultExpandAll
                  treeData={items}
                  // a permission with only part of what is under it shows half ticked
                  checkedKeys={{
                    checked: ticked.filter((k) => !half.has(k)),
                    halfChecked: [...half],
                  }}
                  onCheck={(_keys, info) => onTick(String(info.node.key), info.checked)}
                />
              </div>
            </>
          )}
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
