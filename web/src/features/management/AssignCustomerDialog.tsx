import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Form, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { assignCustomer, companyCustomersQuery, companyOptionsQuery, type GatewayRow } from './api';

/**
 * Gives a gateway in stock to a customer: first the company, then one of its customers. Saving
 * with no customer chosen takes the gateway back (only offered when it has one).
 */
export function AssignCustomerDialog({
  gateway,
  onClose,
  onDone,
}: {
  gateway: GatewayRow;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [search, setSearch] = useState('');
  const [companyId, setCompanyId] = useState<number | null>(null);
  const [customerId, setCustomerId] = useState<number | null>(null);
  const companies = useQuery(companyOptionsQuery(search));
  const customers = useQuery({
    ...companyCustomersQuery(companyId ?? 0),
    enabled: companyId !== null,
  });
  const current = gateway.customerName || gateway.customer?.account || null;

  const save = useMutation({
    mutationFn: () => assignCustomer(gateway.id, customerId),
    onSuccess: () => {
      message.success(
        t(customerId === null ? 'sysGateways.customer.cleared' : 'sysGateways.customer.done'),
      );
      onDone();
      onClose();
    },
    onError: (e) => message.error(isApiError(e) ? e.message : t('sysGateways.failed')),
  });

  return (
    <GuardedModal
      open
      title={t('sysGateways.customer.title', { sn: gateway.sn })}
      okText={customerId === null && current ? t('sysGateways.customer.clear') : t('common.save')}
      okButtonProps={{
        disabled: customerId === null && !current,
        danger: customerId === null && !!current,
        'data-testid': 'customer-ok',
      }}
      cancelText={t('common.cancel')}
      onOk={() => save.mutate()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary" data-testid="customer-current">
        {current
          ? t('sysGateways.customer.current', { name: current })
          : t('sysGateways.customer.none')}
      </Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('sysGateways.customer.company')} htmlFor="assign-company">
          <Select
            id="assign-company"
            showSearch
            allowClear
            filterOption={false}
            onSearch={setSearch}
            value={companyId ?? undefined}
            onChange={(id?: number) => {
              setCompanyId(id ?? null);
              setCustomerId(null);
            }}
            loading={companies.isFetching}
            placeholder={t('sysGateways.customer.companyPick')}
            notFoundContent={
              companies.isError ? t('sysGateways.customer.companiesFailed') : undefined
            }
            options={(companies.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            data-testid="customer-company"
          />
        </Form.Item>
        <Form.Item label={t('sysGateways.customer.customer')} htmlFor="assign-customer">
          <Select
            id="assign-customer"
            showSearch
            allowClear
            optionFilterProp="label"
            disabled={companyId === null}
            value={customerId ?? undefined}
            onChange={(id?: number) => setCustomerId(id ?? null)}
            loading={customers.isFetching}
            placeholder={t('sysGateways.customer.customerPick')}
            notFoundContent={
              customers.isError
                ? t('sysGateways.customer.customersFailed')
                : t('sysGateways.customer.noCustomers')
            }
            options={(customers.data ?? []).map((c) => ({
              value: c.userId,
              label: c.nickname ? `${c.account} (${c.nickname})` : c.account,
            }))}
            data-testid="customer-customer"
          />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
