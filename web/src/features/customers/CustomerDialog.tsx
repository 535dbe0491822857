import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Form, Input, TreeSelect, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Scope } from '@/shared/company';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { account as accountRule, formRule, requiredRule } from '@/shared/validators';
import {
  accountRefusalKey,
  addCustomer,
  customerTypeOptionsQuery,
  editCustomer,
  type Customer,
} from './api';
import { accountCheckRule, useInvalidateCustomers } from './checks';
import { CUSTOMER_LIMITS, remark as remarkRule } from './rules';
import { optionTree } from './tree';

interface Values {
  account: string;
  typeId?: number | null;
  remark?: string;
  message?: string;
}

/** Add a customer by account (`customer` undefined), or edit one's type and remark. */
export function CustomerDialog({
  customer,
  scope,
  onClose,
}: {
  customer?: Customer;
  scope: Scope;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const invalidate = useInvalidateCustomers();
  const types = useQuery(customerTypeOptionsQuery(scope));
  const treeData = useMemo(() => optionTree(types.data ?? []), [types.data]);
  const adding = customer === undefined;

  const save = useMutation({
    mutationFn: (v: Values): Promise<unknown> =>
      adding
        ? addCustomer(
            {
              account: v.account,
              typeId: v.typeId ?? null,
              remark: v.remark ?? '',
              message: v.message ?? '',
            },
            scope,
          )
        : editCustomer(customer.id, { typeId: v.typeId ?? null, remark: v.remark ?? '' }, scope),
    onSuccess: async (_, v) => {
      message.success(
        adding ? t('consent.customer.sent', { account: v.account.trim() }) : t('common.saved'),
      );
      await invalidate();
      onClose();
    },
    onError: (e) => {
      const key = accountRefusalKey(e);
      if (key && adding) form.setFields([{ name: 'account', errors: [t(key)] }]);
      else if (isApiError(e)) message.error(e.message);
    },
  });

  return (
    <GuardedModal
      open
      title={adding ? t('customers.addTitle') : t('customers.editTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'customer-save' }}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          customer
            ? {
                account: customer.account,
                typeId: customer.typeId ?? undefined,
                remark: customer.remark,
              }
            : { remark: '', message: '' }
        }
        onFinish={(v) => save.mutate(v)}
        data-testid="customer-form"
      >
        {adding ? (
          <Form.Item
            name="account"
            label={t('customers.account')}
            extra={t('customers.accountHint')}
            validateTrigger={['onChange', 'onBlur']}
            hasFeedback
            rules={[requiredRule(), formRule(accountRule), accountCheckRule(t, scope)]}
          >
            <Input
              data-keyfilter="off"
              autoComplete="off"
              placeholder={t('login.accountPlaceholder')}
              data-testid="customer-account"
            />
          </Form.Item>
        ) : (
          <Form.Item label={t('customers.account')}>
            <Typography.Text strong data-testid="customer-account-shown">
              {customer.account}
            </Typography.Text>
            {customer.nickname && (
              <Typography.Text type="secondary"> ({customer.nickname})</Typography.Text>
            )}
          </Form.Item>
        )}
        <Form.Item name="typeId" label={t('customers.type')}>
          <TreeSelect
            allowClear
            treeDefaultExpandAll
            showSearch
            treeNodeFilterProp="title"
            placeholder={t('customers.noType')}
            treeData={treeData}
            loading={types.isPending}
            notFoundContent={t('customers.noTypes')}
            data-testid="customer-type"
          />
        </Form.Item>
        <Form.Item name="remark" label={t('customers.remark')} rules={[formRule(remarkRule)]}>
          <Input.TextArea
            rows={3}
            maxLength={CUSTOMER_LIMITS.remark.maxLength}
            showCount
            data-keyfilter="off"
            data-testid="customer-remark"
          />
        </Form.Item>
        {adding && (
          <Form.Item
            name="message"
            label={t('consent.customer.message')}
            extra={t('consent.customer.messageHint')}
            rules={[formRule(remarkRule)]}
          >
            <Input.TextArea
              rows={2}
              maxLength={CUSTOMER_LIMITS.message.maxLength}
              showCount
              data-keyfilter="off"
              data-testid="customer-message"
            />
          </Form.Item>
        )}
      </Form>
    </GuardedModal>
  );
}
