import { UndoOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, List, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { Scope } from '@/shared/company';
import { ErrorCode, isApiError } from '@/shared/http';
import { customerOffersQuery, withdrawCustomerOffer, type CustomerOffer } from './api';
import { useInvalidateCustomers } from './checks';
import { GuardedPopconfirm } from '@/shared/ui/guarded';

/**
 * The owners the company asked to become customers who have not answered: the company sees no
 * plant of theirs until they accept. Withdrawing needs customer.edit. Nothing when there are
 * none.
 */
export function PendingOffers({ scope, mayEdit }: { scope: Scope; mayEdit: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const offers = useQuery(customerOffersQuery(scope));
  const invalidate = useInvalidateCustomers();
  const withdraw = useMutation({
    mutationFn: (o: CustomerOffer) => withdrawCustomerOffer(o.id, scope),
    onSuccess: () => message.success(t('consent.withdrawn')),
    onError: (e) =>
      message.error(
        isApiError(e, ErrorCode.InvalidParameter) ? t('consent.gone') : t('consent.failed'),
      ),
    onSettled: () => invalidate(),
  });

  if (!offers.data?.length) return null;
  return (
    <Card
      size="small"
      title={t('consent.customer.pendingTitle', { count: offers.data.length })}
      data-testid="customer-pending"
    >
      <Alert type="info" showIcon title={t('consent.customer.pendingHelp')} />
      <List<CustomerOffer>
        dataSource={offers.data}
        rowKey="id"
        renderItem={(o) => (
          <List.Item data-testid="customer-pending-row">
            <Flex wrap gap={12} justify="space-between" align="center" style={{ width: '100%' }}>
              <Flex vertical style={{ flex: '1 1 240px', minWidth: 0 }}>
                <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>
                  {o.account}
                </Typography.Text>
                <Typography.Text type="warning">
                  {t('consent.pendingSince', { when: dayjs(o.createAt).format('YYYY-MM-DD') })}
                </Typography.Text>
                {o.message && <Typography.Text italic>“{o.message}”</Typography.Text>}
              </Flex>
              {mayEdit && (
                <GuardedPopconfirm
                  title={t('consent.customer.withdrawConfirm', { account: o.account })}
                  okText={t('consent.withdraw')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => withdraw.mutate(o)}
                >
                  <Button size="small" icon={<UndoOutlined />} data-testid="customer-withdraw">
                    {t('consent.withdraw')}
                  </Button>
                </GuardedPopconfirm>
              )}
            </Flex>
          </List.Item>
        )}
      />
    </Card>
  );
}
