import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PublicShell } from '@/shared/ui/PublicShell';

const AGREEMENT_SECTIONS = [
  'scope',
  'account',
  'data',
  'devices',
  'conduct',
  'liability',
  'changes',
] as const;

/** The user agreement; `lang` pins the language (/agreementen is always English). */
export default function AgreementPage({ lang }: { lang?: 'en' }) {
  const { t } = useTranslation(undefined, lang ? { lng: lang } : undefined);
  return (
    <PublicShell wide>
      <Card>
        <Typography>
          <Typography.Title level={2}>{t('agreement.title')}</Typography.Title>
          <Typography.Paragraph type="secondary">{t('agreement.intro')}</Typography.Paragraph>
          {AGREEMENT_SECTIONS.map((s, i) => (
            <section key={s}>
              <Typography.Title level={4}>
                {i + 1}. {t(`agreement.${s}.title`)}
              </Typography.Title>
              <Typography.Paragraph>{t(`agreement.${s}.text`)}</Typography.Paragraph>
            </section>
          ))}
        </Typography>
      </Card>
    </PublicShell>
  );
}

export function AgreementEnPage() {
  return <AgreementPage lang="en" />;
}
