import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Scope } from '@/shared/company';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { formRule, requiredRule } from '@/shared/validators';
import {
  createCustomerType,
  customerKeys,
  customerTypeOptionsQuery,
  updateCustomerType,
  type CustomerTypeBody,
} from './api';
import { saveRefusal } from './checks';
import { remark as remarkRule, TYPE_LIMITS, typeCode, typeName } from './rules';
import { optionTree, type TypeRow } from './tree';

/** What the dialog opens for: a new type (under `parentId`, or at the top), or a type to edit. */
export type TypeDialogTarget =
  { kind: 'add'; parentId: number | null } | { kind: 'edit'; type: TypeRow };

interface Values {
  code: string;
  name: string;
  remark?: string;
  parentId?: number | null;
}

/** Add a customer type (also under another: "add child") or edit one. */
export function CustomerTypeDialog({
  target,
  scope,
  onClose,
}: {
  target: TypeDialogTarget;
  scope: Scope;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const options = useQuery(customerTypeOptionsQuery(scope));
  const editing = target.kind === 'edit' ? target.type : undefined;
  const treeData = useMemo(
    () => optionTree(options.data ?? [], editing?.id),
    [options.data, editing?.id],
  );

  const save = useMutation({
    mutationFn: (v: Values): Promise<unknown> => {
      const body: CustomerTypeBody = {
        code: v.code.trim(),
        name: v.name.trim(),
        remark: (v.remark ?? '').trim(),
        parentId: v.parentId ?? null,
      };
      return editing
        ? updateCustomerType(editing.id, body, scope)
        : createCustomerType(body, scope);
    },
    onSuccess: async () => {
      message.success(t(editing ? 'common.saved' : 'customerTypes.added'));
      await queryClient.invalidateQueries({ queryKey: customerKeys.all });
      onClose();
    },
    onError: (e) => {
      const refusal = saveRefusal(e);
      if (refusal) form.setFields([{ name: refusal.field, errors: [t(refusal.key)] }]);
      else if (isApiError(e)) message.error(e.message);
    },
  });

  const title = editing
    ? t('customerTypes.editTitle')
    : target.kind === 'add' && target.parentId !== null
      ? t('customerTypes.addChildTitle')
      : t('customerTypes.addTitle');

  return (
    <GuardedModal
      open
      title={title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'type-save' }}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          editing
            ? {
                code: editing.code,
                name: editing.name,
                remark: editing.remark,
                parentId: editing.parentId ?? undefined,
              }
            : {
                parentId: target.kind === 'add' ? (target.parentId ?? undefined) : undefined,
                remark: '',
              }
        }
        onFinish={(v) => save.mutate(v)}
        data-testid="type-form"
      >
        <Form.Item
          name="name"
          label={t('customerTypes.name')}
          rules={[requiredRule(), formRule(typeName)]}
        >
          <Input
            maxLength={TYPE_LIMITS.name.maxLength}
            autoComplete="off"
            data-testid="type-name"
          />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('customerTypes.code')}
          extra={t('customerTypes.codeHint')}
          rules={[requiredRule(), formRule(typeCode)]}
        >
          <Input
            maxLength={TYPE_LIMITS.code.maxLength}
            autoComplete="off"
            data-testid="type-code"
          />
        </Form.Item>
        <Form.Item name="parentId" label={t('customerTypes.parent')}>
          <TreeSelect
            allowClear
            showSearch
            treeDefaultExpandAll
            treeNodeFilterProp="title"
            placeholder={t('customerTypes.noParent')}
            treeData={treeData}
            loading={options.isPending}
            notFoundContent={t('customers.noTypes')}
            data-testid="type-parent"
          />
        </Form.Item>
        <Form.Item name="remark" label={t('customerTypes.remark')} rules={[formRule(remarkRule)]}>
          <Input.TextArea
            rows={3}
            maxLength={TYPE_LIMITS.remark.maxLength}
            showCount
            data-testid="type-remark"
          />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
