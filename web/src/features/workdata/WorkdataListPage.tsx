import { UploadOutlined } from '@ant-design/icons';
import { Button, Card, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCan } from '@/shared/permissions';
import { DynamicTab } from './DynamicTab';
import { EventsTab } from './EventsTab';
import { PlantReportTab } from './PlantReportTab';
import { PredictedDialog } from './PredictedDialog';

const TABS = ['report', 'dynamic', 'inverter', 'battery'] as const;
type Tab = (typeof TABS)[number];

/**
 * workdata/list: the reports of the plants and devices the caller may see, one tab each:
 * printable plant reports, a device's dynamic data, inverter events and battery events. Users
 * who may edit plants import predicted generation from here.
 */
export default function WorkdataListPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const mayExport = useCan('workdata.export');
  const mayImport = useCan('station.edit');
  const [importing, setImporting] = useState(false);
  const tab: Tab = TABS.find((k) => k === search.get('tab')) ?? 'report';

  // each tab keeps its own filters in the URL: a new tab starts from a bare one
  const choose = (key: string) =>
    setSearch(key === 'report' ? {} : { tab: key }, { replace: true });

  const body = (key: Tab) => {
    switch (key) {
      case 'report':
        return <PlantReportTab />;
      case 'dynamic':
        return <DynamicTab mayExport={mayExport} />;
      default:
        return <EventsTab kind={key} mayExport={mayExport} />;
    }
  };

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="workdata-title">
          {t('workdata.title')}
        </Typography.Title>
      }
      extra={
        mayImport && (
          <Button
            icon={<UploadOutlined />}
            onClick={() => setImporting(true)}
            data-testid="predicted-import"
          >
            {t('workdata.predicted.button')}
          </Button>
        )
      }
    >
      <Tabs
        activeKey={tab}
        onChange={choose}
        destroyOnHidden
        data-testid="workdata-tabs"
        items={TABS.map((key) => ({
          key,
          label: <span data-testid={`workdata-tab-${key}`}>{t(`workdata.tabs.${key}`)}</span>,
          children: key === tab ? body(key) : null,
        }))}
      />
      {importing && <PredictedDialog onClose={() => setImporting(false)} />}
    </Card>
  );
}
