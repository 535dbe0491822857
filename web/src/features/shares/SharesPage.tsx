import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Problem } from '@/shared/ui/Problem';
import { useCan } from '@/shared/permissions';
import { sharesQuery } from './api';
import { AgencySide } from './AgencySide';
import { CustomerOffers, ServingCompanies } from './CustomerSide';
import { PlantShares } from './PlantShares';

/**
 * Shared management: who can see the caller's plants and with which rights, and what is shared
 * with them. Requests waiting for an answer come first; company staff with company.agent also
 * see their company's agent relations both ways.
 */
export default function SharesPage() {
  const { t } = useTranslation();
  const shares = useQuery(sharesQuery);
  const agency = useCan('company.agent');

  let body;
  if (shares.isPending) {
    body = <Skeleton active paragraph={{ rows: 6 }} data-testid="shares-loading" />;
  } else if (shares.isError) {
    body = (
      <Problem
        title={t('consent.loadFailed')}
        testId="shares-error"
        extra={<Button onClick={() => void shares.refetch()}>{t('common.refresh')}</Button>}
      />
    );
  } else {
    const d = shares.data;
    body = (
      <Flex vertical gap={16}>
        {d.customerOffers.length > 0 && <CustomerOffers offers={d.customerOffers} />}
        <ServingCompanies companies={d.companies} />
        <PlantShares shares={d.given} given />
        <PlantShares shares={d.received} given={false} />
        {agency && <AgencySide data={d} />}
      </Flex>
    );
  }

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="shares-title">
          {t('consent.title')}
        </Typography.Title>
      }
    >
      <Typography.Paragraph type="secondary">{t('consent.intro')}</Typography.Paragraph>
      {body}
    </Card>
  );
}
