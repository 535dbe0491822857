import { CheckOutlined, CloseOutlined, GiftOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, List, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/shared/format/number';
import { ErrorCode, isApiError } from '@/shared/http';
import { GuardedPopconfirm, SubmitButton } from '@/shared/ui/guarded';
import { acceptOffer, declineOffer, plantOffersQuery, type PlantOffer } from './api';
import { plantKeys } from '@/shared/api/keys';

/** Plants a company made for the caller, waiting for them to accept or decline: nothing is
 * put into an account without its owner's consent. Shows nothing when there are none. */
export function PlantOffers() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const offers = useQuery(plantOffersQuery);
  const answer = useMutation({
    mutationFn: ({ offer, accept }: { offer: PlantOffer; accept: boolean }) =>
      accept ? acceptOffer(offer.plantId) : declineOffer(offer.plantId),
    onSuccess: (_, { offer, accept }) =>
      message.success(
        t(accept ? 'plants.offer.accepted' : 'plants.offer.declined', { name: offer.name }),
      ),
    onError: (e) =>
      message.error(
        isApiError(e, ErrorCode.PlantMissing) ? t('plants.offer.gone') : t('plants.offer.failed'),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: plantKeys.all }),
  });

  if (!offers.data?.length) return null;
  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="center">
          <GiftOutlined />
          {t('plants.offer.title', { count: offers.data.length })}
        </Flex>
      }
      data-testid="plant-offers"
    >
      <Alert
        type="info"
        showIcon
        title={t('plants.offer.help')}
        description={t('consent.plantOfferNote')}
        style={{ marginBottom: 8 }}
      />
      <List<PlantOffer>
        dataSource={offers.data}
        rowKey="plantId"
        renderItem={(o) => (
          <List.Item data-testid="plant-offer">
            <Flex wrap gap={12} justify="space-between" align="center" style={{ width: '100%' }}>
              <Flex vertical gap={2} style={{ flex: '1 1 260px', minWidth: 0 }}>
                <Typography.Text strong data-testid="offer-name">
                  {o.name}
                </Typography.Text>
                <Typography.Text type="secondary">
                  {t('plants.offer.from', {
                    company: o.companyName ?? o.offeredByName ?? o.offeredBy,
                    account: o.offeredBy,
                    when: dayjs(o.offeredAt).format('YYYY-MM-DD HH:mm'),
                  })}
                </Typography.Text>
                <Typography.Text type="secondary">
                  {formatNumber(o.totalPower)} kWp
                  {o.address ? ` · ${o.address}` : ''}
                </Typography.Text>
              </Flex>
              <Space wrap>
                <SubmitButton
                  type="primary"
                  size="small"
                  icon={<CheckOutlined />}
                  loading={answer.isPending && answer.variables?.offer.plantId === o.plantId}
                  onClick={() => answer.mutate({ offer: o, accept: true })}
                  data-testid="offer-accept"
                >
                  {t('plants.offer.accept')}
                </SubmitButton>
                <GuardedPopconfirm
                  title={t('plants.offer.declineConfirm', { name: o.name })}
                  okText={t('plants.offer.decline')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => answer.mutate({ offer: o, accept: false })}
                >
                  <Button size="small" icon={<CloseOutlined />} data-testid="offer-decline">
                    {t('plants.offer.decline')}
                  </Button>
                </GuardedPopconfirm>
              </Space>
            </Flex>
          </List.Item>
        )}
      />
    </Card>
  );
}
