import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Flex,
  Row,
  Segmented,
  Space,
  Statistic,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { withAxis } from '@/shared/devices/chart';
import { ChartBody, DeviceLoadState, DeviceTitle } from '@/shared/devices/DetailParts';
import { DeleteDeviceDialog, RenameDeviceDialog } from '@/shared/devices/dialogs';
import { withUnit } from '@/shared/devices/format';
import { liveClass, shownStatus } from '@/shared/devices/live';
import { StaleNotice } from '@/shared/devices/StaleNotice';
import { formatTemp, type TempUnit } from '@/shared/devices/temp';
import { useAxisStyle, type ChartOption } from '@/shared/charts';
import { MISSING } from '@/shared/format/number';
import { formatPlantTime, todayIn, validZone } from '@/shared/format/time';
import { useCurrentUser } from '@/shared/user';
import { STATION, stationDayQuery, stationRealtimeQuery } from './api';
import { compassPoint, DAY_VIEWS, dayChartOption, type DayView } from './units';

/** device/weather/:sn: a weather station's values now and its day curve, rename and delete. */
export default function WeatherDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sn = decodeURIComponent(useParams().sn ?? '');
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const rt = useQuery(stationRealtimeQuery(sn));
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  if (!rt.isSuccess) return <DeviceLoadState kind={STATION} query={rt} />;
  const r = rt.data;
  const compass = compassPoint(r.windDirection);
  const tiles = [
    { key: 'irradiance', value: withUnit(r.irradiance, 'W/m²') },
    { key: 'ambientTemp', value: formatTemp(r.ambientTemp, temp) },
    { key: 'moduleTemp', value: formatTemp(r.moduleTemp, temp) },
    { key: 'humidity', value: withUnit(r.humidity, '%') },
    {
      key: 'wind',
      value:
        r.windSpeed === null
          ? MISSING
          : `${withUnit(r.windSpeed, 'm/s')}${compass ? ` ${t(`weather.compass.${compass}`)}` : ''}`,
    },
    { key: 'todayIrradiation', value: withUnit(r.todayIrradiation, 'kWh/m²') },
  ];
  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <DeviceTitle
            kind={STATION}
            sn={r.sn}
            alias={r.alias}
            status={shownStatus(r.status, r.stale)}
          />
        }
        extra={
          r.editable && (
            <Space wrap>
              <Button icon={<EditOutlined />} onClick={() => setRenaming(true)}>
                {t('weather.rename.button')}
              </Button>
              <Button danger icon={<DeleteOutlined />} onClick={() => setDeleting(true)}>
                {t('weather.delete.button')}
              </Button>
            </Space>
          )
        }
      >
        <StaleNotice stale={r.stale} updateAt={r.updateAt} zone={r.timezone} />
        <Row
          gutter={[12, 12]}
          data-testid="weather-realtime"
          className={liveClass(r.stale)}
          data-stale={r.stale ? 'true' : 'false'}
          style={{ marginTop: r.stale ? 16 : 0 }}
        >
          {tiles.map((tile) => (
            <Col key={tile.key} xs={12} md={8} xl={4}>
              <Card size="small">
                <Statistic
                  title={t(`weather.field.${tile.key}`)}
                  value={tile.value}
                  valueRender={() => <span data-testid={`weather-${tile.key}`}>{tile.value}</span>}
                />
              </Card>
            </Col>
          ))}
        </Row>
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }} style={{ marginTop: 16 }}>
          <Descriptions.Item label={t('weather.field.plant')}>
            {r.plant?.name ?? MISSING}
          </Descriptions.Item>
          <Descriptions.Item label={t('weather.field.gateway')}>
            {r.gsn ?? MISSING}
          </Descriptions.Item>
          <Descriptions.Item label={t('weather.field.pressure')}>
            {withUnit(r.pressure, 'hPa')}
          </Descriptions.Item>
          <Descriptions.Item label={t('weather.field.rainfall')}>
            {withUnit(r.rainfall, 'mm')}
          </Descriptions.Item>
          <Descriptions.Item label={t('weather.field.windDirection')}>
            {withUnit(r.windDirection, '°')}
          </Descriptions.Item>
          <Descriptions.Item label={t('weather.field.time')}>
            {formatPlantTime(r.time, r.timezone)}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <DayCard sn={r.sn} temp={temp} zone={validZone(r.timezone)} />
      {renaming && (
        <RenameDeviceDialog
          kind={STATION}
          sn={r.sn}
          alias={r.alias}
          open
          onClose={() => setRenaming(false)}
        />
      )}
      <DeleteDeviceDialog
        kind={STATION}
        sn={r.sn}
        open={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate('/device/weather')}
      />
    </Flex>
  );
}

function DayCard({ sn, temp, zone }: { sn: string; temp: TempUnit; zone: string }) {
  const { t } = useTranslation();
  const axis = useAxisStyle();
  const [date, setDate] = useState<Dayjs>(() => todayIn(zone));
  const [view, setView] = useState<DayView>('irradiance');
  const day = useQuery(stationDayQuery(sn, date.format('YYYY-MM-DD')));
  const option = useMemo<ChartOption | null>(
    () =>
      day.data
        ? withAxis(
            dayChartOption(
              day.data.infos,
              view,
              temp,
              (l) => t(`weather.series.${l}`),
              date.format('YYYY-MM-DD'),
              zone,
            ),
            axis,
          )
        : null,
    [day.data, view, temp, t, axis, date, zone],
  );
  return (
    <Card
      title={t('weather.day.title')}
      data-testid="weather-day"
      extra={
        <Space wrap>
          <Segmented
            value={view}
            onChange={(v) => setView(v as DayView)}
            options={(Object.keys(DAY_VIEWS) as DayView[]).map((v) => ({
              value: v,
              label: t(`weather.day.${v}`),
            }))}
          />
          <DatePicker
            aria-label={t('weather.date')}
            value={date}
            allowClear={false}
            disabledDate={(d) => d.isAfter(todayIn(zone), 'day')}
            onChange={(d) => d && setDate(d)}
          />
        </Space>
      }
    >
      <ChartBody kind={STATION} query={day} option={option} label={t('weather.day.title')} />
    </Card>
  );
}
