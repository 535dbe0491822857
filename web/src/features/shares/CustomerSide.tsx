import { CheckOutlined, CloseOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  acceptCustomerOffer,
  declineCustomerOffer,
  endCustomerRelation,
  type CustomerOffer,
  type ServingCompany,
} from './api';
import { Rights } from './Rights';
import { Row } from './Row';
import { Section } from './Section';
import { useAnswer } from './useAnswer';
import { GuardedPopconfirm, SubmitButton } from '@/shared/ui/guarded';

const day = (iso: string) => dayjs(iso).format('YYYY-MM-DD');

/** Companies asking the owner to become their customer: accept or decline. */
export function CustomerOffers({ offers }: { offers: CustomerOffer[] }) {
  const { t } = useTranslation();
  const accept = useAnswer((o: CustomerOffer) => acceptCustomerOffer(o.id), 'consent.accepted');
  const decline = useAnswer((o: CustomerOffer) => declineCustomerOffer(o.id), 'consent.declined');
  return (
    <Section
      title={t('consent.offers.title', { count: offers.length })}
      testId="customer-offers"
      items={offers}
      rowKey={(o) => o.id}
      empty={t('consent.offers.empty')}
      help={
        offers.length > 0 && (
          <Typography.Paragraph type="secondary">{t('consent.offers.help')}</Typography.Paragraph>
        )
      }
      render={(o) => (
        <Row
          testId="customer-offer"
          title={o.companyName}
          lines={[
            <Typography.Text type="secondary" key="when">
              {t('consent.askedOn', { when: day(o.createAt) })}
            </Typography.Text>,
            o.message && (
              <Typography.Text italic key="message" data-testid="offer-message">
                “{o.message}”
              </Typography.Text>
            ),
            <Rights key="rights" rights={o.rights} label={t('consent.offers.rights')} />,
          ]}
          actions={
            <>
              <SubmitButton
                type="primary"
                size="small"
                icon={<CheckOutlined />}
                loading={accept.isPending && accept.variables?.id === o.id}
                onClick={() => accept.mutate(o)}
                data-testid="customer-offer-accept"
              >
                {t('consent.accept')}
              </SubmitButton>
              <GuardedPopconfirm
                title={t('consent.offers.declineConfirm', { company: o.companyName })}
                okText={t('consent.decline')}
                cancelText={t('common.cancel')}
                onConfirm={() => decline.mutate(o)}
              >
                <Button size="small" icon={<CloseOutlined />} data-testid="customer-offer-decline">
                  {t('consent.decline')}
                </Button>
              </GuardedPopconfirm>
            </>
          }
        />
      )}
    />
  );
}

/** The companies the owner is a customer of, with what their staff may do; end at any time. */
export function ServingCompanies({ companies }: { companies: ServingCompany[] }) {
  const { t } = useTranslation();
  const end = useAnswer((c: ServingCompany) => endCustomerRelation(c.id), 'consent.ended');
  return (
    <Section
      title={t('consent.companies.title')}
      testId="serving-companies"
      items={companies}
      rowKey={(c) => c.id}
      empty={t('consent.companies.empty')}
      render={(c) => (
        <Row
          testId="serving-company"
          title={c.companyName}
          lines={[
            <Typography.Text type="secondary" key="since">
              {t('consent.since', { when: day(c.createAt) })}
            </Typography.Text>,
            <Rights key="rights" rights={c.rights} />,
          ]}
          actions={
            <GuardedPopconfirm
              title={t('consent.companies.endConfirm', { company: c.companyName })}
              description={t('consent.companies.endText')}
              okText={t('consent.end')}
              okButtonProps={{ danger: true }}
              cancelText={t('common.cancel')}
              onConfirm={() => end.mutate(c)}
            >
              <Button size="small" danger icon={<StopOutlined />} data-testid="serving-company-end">
                {t('consent.end')}
              </Button>
            </GuardedPopconfirm>
          }
        />
      )}
    />
  );
}
