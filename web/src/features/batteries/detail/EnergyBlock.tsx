import { Card, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { energyText } from '@/shared/devices/energy';
import type { BatteryRealtime } from '../api';

/** Energy charged and discharged today, this month, this year and in all. */
export function EnergyBlock({ r }: { r: BatteryRealtime }) {
  const { t } = useTranslation();
  const rows = [
    { key: 'today', chg: r.etodayChg, dischg: r.etodayDischg },
    { key: 'month', chg: r.emonthChg, dischg: r.emonthDischg },
    { key: 'year', chg: r.eyearChg, dischg: r.eyearDischg },
    { key: 'total', chg: r.etotalChg, dischg: r.etotalDischg },
  ];
  return (
    <Card size="small" title={t('batteries.energy.title')}>
      <Table
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={rows}
        data-testid="battery-energy"
        columns={[
          { key: 'span', title: '', render: (_, row) => t(`batteries.energy.${row.key}`) },
          {
            key: 'chg',
            title: t('batteries.energy.charge'),
            align: 'right',
            render: (_, row) => <span style={{ whiteSpace: 'nowrap' }}>{energyText(row.chg)}</span>,
          },
          {
            key: 'dischg',
            title: t('batteries.energy.discharge'),
            align: 'right',
            render: (_, row) => (
              <span style={{ whiteSpace: 'nowrap' }}>{energyText(row.dischg)}</span>
            ),
          },
        ]}
      />
    </Card>
  );
}
