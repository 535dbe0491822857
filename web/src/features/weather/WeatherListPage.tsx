import { useTranslation } from 'react-i18next';
import { deviceColumns, valueColumn } from '@/shared/devices/columns';
import { DeviceListView } from '@/shared/devices/DeviceListView';
import { withUnit } from '@/shared/devices/format';
import { formatTemp, type TempUnit } from '@/shared/devices/temp';
import { useDeviceList } from '@/shared/devices/useDeviceList';
import { useCurrentUser } from '@/shared/user';
import { STATION, type StationRow } from './api';

/** device/weather: status counts, filters and the paged list of weather stations. */
export default function WeatherListPage() {
  const { t } = useTranslation();
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const state = useDeviceList<StationRow>(STATION);
  const value = (key: keyof StationRow & string, render: (v: string | null) => string) =>
    valueColumn<StationRow>(STATION, t, key, 130, render);
  const columns = deviceColumns<StationRow>(
    STATION,
    t,
    [
      value('irradiance', (v) => withUnit(v, 'W/m²')),
      value('ambientTemp', (v) => formatTemp(v, temp)),
      value('moduleTemp', (v) => formatTemp(v, temp)),
    ],
    { snWidth: 160 },
  );
  return <DeviceListView kind={STATION} state={state} columns={columns} scrollX={1200} />;
}
