import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Card, Empty, Result, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { withUnit } from '@/shared/devices/format';
import { formatTemp, type TempUnit } from '@/shared/devices/temp';
import { formatNumber, MISSING } from '@/shared/format/number';
import { statusOf } from '@/shared/ui/status';
import { useCurrentUser } from '@/shared/user';
import { batterySlavesQuery, type Pack } from '../api';

/** The packs of a master stack, each with its own readings. */
export function PacksBlock({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const packs = useQuery(batterySlavesQuery(sn));
  return (
    <Card title={t('batteries.packs.title')}>
      {packs.isError ? (
        <Result
          status="warning"
          title={t('batteries.loadFailed')}
          extra={<Button onClick={() => void packs.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <Table<Pack>
          size="small"
          rowKey={(p) => `${p.source}-${p.no}-${p.sn}`}
          loading={packs.isPending}
          pagination={false}
          data-testid="battery-packs"
          dataSource={packs.data?.infos ?? []}
          scroll={{ x: 900 }}
          locale={{ emptyText: <Empty description={t('batteries.packs.none')} /> }}
          columns={[
            { key: 'no', title: t('batteries.packs.no'), render: (_, p) => p.no, width: 60 },
            { key: 'sn', title: t('batteries.column.sn'), render: (_, p) => p.sn || MISSING },
            {
              key: 'status',
              title: t('batteries.column.status'),
              render: (_, p) => {
                const s = statusOf(p.status);
                return <Badge color={s.color} text={t(`batteries.status.${s.key}`)} />;
              },
            },
            {
              key: 'soc',
              title: t('batteries.column.soc'),
              align: 'right',
              render: (_, p) => withUnit(p.soc, '%'),
            },
            {
              key: 'soh',
              title: t('batteries.column.soh'),
              align: 'right',
              render: (_, p) => withUnit(p.soh, '%'),
            },
            {
              key: 'voltage',
              title: t('batteries.column.voltage'),
              align: 'right',
              render: (_, p) => withUnit(p.voltage, 'V'),
            },
            {
              key: 'current',
              title: t('batteries.column.current'),
              align: 'right',
              render: (_, p) => withUnit(p.current, 'A'),
            },
            {
              key: 'temp',
              title: t('batteries.column.temp'),
              align: 'right',
              render: (_, p) => formatTemp(p.temp, temp),
            },
            {
              key: 'cellMax',
              title: t('batteries.packs.cellMax'),
              align: 'right',
              render: (_, p) => withUnit(p.cellVoltMax, 'V'),
            },
            {
              key: 'cellMin',
              title: t('batteries.packs.cellMin'),
              align: 'right',
              render: (_, p) => withUnit(p.cellVoltMin, 'V'),
            },
            {
              key: 'cycles',
              title: t('batteries.column.cycles'),
              align: 'right',
              render: (_, p) => formatNumber(p.cycles),
            },
          ]}
        />
      )}
    </Card>
  );
}
