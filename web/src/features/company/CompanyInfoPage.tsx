import { EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Flex, Skeleton, Typography } from 'antd';
import dayjs from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScopeGate, type Scope } from '@/shared/company';
import { MISSING } from '@/shared/format/number';
import { useCan } from '@/shared/permissions';
import { Problem } from '@/shared/ui/Problem';
import { companyInfoQuery, type CompanyInfo } from './api';
import { LogoCard } from './LogoCard';
import { ThemeCard } from './ThemeCard';
import './company.css';

const CompanyEditDialog = lazy(() => import('./CompanyEditDialog'));

function Details({ info }: { info: CompanyInfo }) {
  const { t } = useTranslation();
  const or = (v: string | null | undefined) => v || MISSING;
  return (
    <Descriptions
      column={{ xs: 1, sm: 1, md: 2 }}
      data-testid="company-details"
      items={[
        {
          key: 'name',
          label: t('company.field.name'),
          children: <span data-testid="company-name">{info.name}</span>,
        },
        {
          key: 'admin',
          label: t('company.field.admin'),
          children: <span data-testid="company-admin">{or(info.adminAccount)}</span>,
        },
        {
          key: 'contactName',
          label: t('company.field.contactName'),
          children: or(info.contactName),
        },
        { key: 'email', label: t('company.field.email'), children: or(info.email) },
        { key: 'phone', label: t('company.field.phone'), children: or(info.phone) },
        { key: 'address', label: t('company.field.address'), children: or(info.address) },
        {
          key: 'createAt',
          label: t('company.field.createAt'),
          children: info.createAt ? dayjs(info.createAt).format('YYYY-MM-DD') : MISSING,
        },
        {
          key: 'remark',
          label: t('company.field.remark'),
          span: { xs: 1, sm: 1, md: 2 },
          children: <span className="company-remark">{or(info.remark)}</span>,
        },
      ]}
    />
  );
}

function CompanyInfoView({ scope }: { scope: Scope }) {
  const { t } = useTranslation();
  const info = useQuery(companyInfoQuery(scope));
  const mayEdit = useCan('company.edit');
  const [editing, setEditing] = useState(false);

  const title = (
    <Typography.Title level={4} style={{ margin: 0 }} data-testid="company-title">
      {t('company.info.title')}
    </Typography.Title>
  );

  if (info.isError) {
    return (
      <Card title={title}>
        <Problem
          title={t('company.loadFailed')}
          testId="company-error"
          extra={<Button onClick={() => void info.refetch()}>{t('common.refresh')}</Button>}
        />
      </Card>
    );
  }
  if (!info.data) {
    return (
      <Card title={title}>
        <Skeleton active paragraph={{ rows: 5 }} />
      </Card>
    );
  }

  return (
    <Flex vertical gap={16}>
      <Card
        title={title}
        extra={
          mayEdit && (
            <Button
              icon={<EditOutlined />}
              onClick={() => setEditing(true)}
              data-testid="company-edit"
            >
              {t('company.info.edit')}
            </Button>
          )
        }
      >
        <Details info={info.data} />
      </Card>
      <LogoCard info={info.data} scope={scope} mayEdit={mayEdit} />
      <ThemeCard info={info.data} mayEdit={mayEdit} />
      {editing && (
        <Suspense fallback={null}>
          <CompanyEditDialog info={info.data} onClose={() => setEditing(false)} />
        </Suspense>
      )}
    </Flex>
  );
}

/** Company / Info: the company's details, its logos and its theme colour. */
export default function CompanyInfoPage() {
  return <ScopeGate>{(scope) => <CompanyInfoView scope={scope} />}</ScopeGate>;
}
