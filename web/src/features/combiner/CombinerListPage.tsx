import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { deviceColumns, valueColumn } from '@/shared/devices/columns';
import { DeviceListView } from '@/shared/devices/DeviceListView';
import { withUnit } from '@/shared/devices/format';
import { useDeviceList } from '@/shared/devices/useDeviceList';
import { MISSING } from '@/shared/format/number';
import { formatPower } from '@/shared/format/units';
import { COMBINER, type CombinerRow } from './api';

/** device/combiner: status counts, filters and the paged list of DC combiner boxes. */
export default function CombinerListPage() {
  const { t } = useTranslation();
  const state = useDeviceList<CombinerRow>(COMBINER);
  const value = (key: keyof CombinerRow & string, width: number, render: (v: never) => string) =>
    valueColumn<CombinerRow>(COMBINER, t, key, width, render);
  const columns = deviceColumns<CombinerRow>(
    COMBINER,
    t,
    [
      value('power', 110, (v: number | null) => formatPower(v)),
      {
        key: 'strings',
        title: t('combiner.column.strings'),
        width: 170,
        render: (_, row) => (
          <span data-testid="combiner-strings">
            {row.strings || MISSING}
            {row.weakStrings.length > 0 && (
              <Tag color="warning" style={{ marginInlineStart: 8 }} data-testid="combiner-weak">
                {t('combiner.weakCount', { count: row.weakStrings.length })}
              </Tag>
            )}
          </span>
        ),
      },
      value('busVoltage', 110, (v: number | null) => withUnit(v, 'V')),
      value('temperature', 110, (v: number | null) => withUnit(v, '°C')),
      value('etoday', 120, (v: number | null) => withUnit(v, 'kWh')),
    ],
    { snWidth: 160 },
  );
  return <DeviceListView kind={COMBINER} state={state} columns={columns} scrollX={1400} />;
}
