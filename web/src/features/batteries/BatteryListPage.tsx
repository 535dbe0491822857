import { useTranslation } from 'react-i18next';
import { deviceColumns, valueColumn } from '@/shared/devices/columns';
import { DeviceListView } from '@/shared/devices/DeviceListView';
import { withUnit } from '@/shared/devices/format';
import { formatTemp, type TempUnit } from '@/shared/devices/temp';
import { useDeviceList } from '@/shared/devices/useDeviceList';
import { formatNumber } from '@/shared/format/number';
import { formatPower } from '@/shared/format/units';
import { useCurrentUser } from '@/shared/user';
import { BATTERY, type BatteryRow } from './api';

/** device/battery: status counts, filters and the paged list of battery stacks. */
export default function BatteryListPage() {
  const { t } = useTranslation();
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const state = useDeviceList<BatteryRow>(BATTERY);
  const value = (key: keyof BatteryRow & string, width: number, render?: (v: never) => string) =>
    valueColumn<BatteryRow>(BATTERY, t, key, width, render);
  const columns = deviceColumns<BatteryRow>(
    BATTERY,
    t,
    [
      value('soc', 80, (v: string | null) => withUnit(v, '%')),
      value('soh', 80, (v: string | null) => withUnit(v, '%')),
      value('voltage', 100, (v: string | null) => withUnit(v, 'V')),
      value('current', 100, (v: string | null) => withUnit(v, 'A')),
      value('power', 100, (v: number | null) => formatPower(v)),
      value('temp', 100, (v: string | null) => formatTemp(v, temp)),
      value('cycles', 80, (v: number | null) => formatNumber(v)),
      valueColumn<BatteryRow>(BATTERY, t, 'packCount', 80, undefined, 'packs'),
    ],
    { snWidth: 150 },
  );
  return <DeviceListView kind={BATTERY} state={state} columns={columns} scrollX={1500} />;
}
