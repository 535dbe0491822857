import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { deviceColumns, valueColumn } from '@/shared/devices/columns';
import { DeviceListView } from '@/shared/devices/DeviceListView';
import { energyText } from '@/shared/devices/energy';
import { withUnit } from '@/shared/devices/format';
import { useDeviceList } from '@/shared/devices/useDeviceList';
import { MISSING } from '@/shared/format/number';
import { formatPower } from '@/shared/format/units';
import { METER, type MeterRow } from './api';

/** device/meter: status counts, filters and the paged list of meters. */
export default function MeterListPage() {
  const { t } = useTranslation();
  const state = useDeviceList<MeterRow>(METER);
  const value = (key: keyof MeterRow & string, width: number, render: (v: never) => string) =>
    valueColumn<MeterRow>(METER, t, key, width, render);
  const columns = deviceColumns<MeterRow>(
    METER,
    t,
    [
      value('power', 110, (v: number | null) => formatPower(v)),
      value('voltage', 100, (v: string | null) => withUnit(v, 'V')),
      value('frequency', 100, (v: number | null) => withUnit(v, 'Hz')),
      value('totalImport', 130, energyText),
      value('totalExport', 130, energyText),
    ],
    {
      snWidth: 160,
      alias: (row) => (
        <>
          {row.alias || MISSING}
          {row.master && (
            <Tag color="green" style={{ marginInlineStart: 8 }}>
              {t('meters.master')}
            </Tag>
          )}
        </>
      ),
    },
  );
  return <DeviceListView kind={METER} state={state} columns={columns} scrollX={1400} />;
}
