import { ArrowLeftOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Empty,
  Flex,
  Result,
  Row,
  Segmented,
  Skeleton,
  Space,
  Statistic,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EChart, useAxisStyle, type ChartOption } from '@/shared/charts';
import { formatNumber, MISSING } from '@/shared/format/number';
import { isApiError } from '@/shared/http';
import { useCurrentUser } from '@/shared/user';
import { stationDayQuery, stationRealtimeQuery, type NumText } from './api';
import { DeleteStationDialog, RenameStationDialog } from './dialogs';
import { deviceStatus } from './status';
import {
  compassPoint,
  DAY_VIEWS,
  dayChartOption,
  formatTemp,
  type DayView,
  type TempUnit,
} from './units';

const withUnit = (v: NumText, unit: string) =>
  v === null ? MISSING : `${formatNumber(v)} ${unit}`;

/** device/weather/:sn: a weather station's values now and its day curve, rename and delete. */
export default function WeatherDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sn = decodeURIComponent(useParams().sn ?? '');
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const rt = useQuery(stationRealtimeQuery(sn));
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate('/device/weather')}>
      {t('weather.back')}
    </Button>
  );

  if (rt.isPending)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  if (rt.isError) {
    const missing = isApiError(rt.error) && rt.error.code === 600;
    return (
      <Result
        status={missing ? '404' : 'warning'}
        title={missing ? t('weather.missing') : t('weather.loadFailed')}
        extra={
          <Space>
            {back}
            {!missing && <Button onClick={() => void rt.refetch()}>{t('common.refresh')}</Button>}
          </Space>
        }
      />
    );
  }
  const r = rt.data;
  const status = deviceStatus(r.status);
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
          <Flex gap={12} align="center" wrap>
            {back}
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="weather-title">
              {r.sn}
            </Typography.Title>
            {r.alias && <Typography.Text type="secondary">{r.alias}</Typography.Text>}
            <Badge color={status.color} text={t(`weather.status.${status.key}`)} />
          </Flex>
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
        <Row gutter={[12, 12]} data-testid="weather-realtime">
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
          <Descriptions.Item label={t('weather.field.time')}>{r.time ?? MISSING}</Descriptions.Item>
        </Descriptions>
      </Card>
      <DayCard sn={r.sn} temp={temp} />
      {renaming && (
        <RenameStationDialog sn={r.sn} alias={r.alias} open onClose={() => setRenaming(false)} />
      )}
      <DeleteStationDialog
        sn={r.sn}
        open={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate('/device/weather')}
      />
    </Flex>
  );
}

function DayCard({ sn, temp }: { sn: string; temp: TempUnit }) {
  const { t } = useTranslation();
  const axis = useAxisStyle();
  const [date, setDate] = useState<Dayjs>(dayjs());
  const [view, setView] = useState<DayView>('irradiance');
  const day = useQuery(stationDayQuery(sn, date.format('YYYY-MM-DD')));
  const option = useMemo<ChartOption | null>(() => {
    if (!day.data) return null;
    const o = dayChartOption(day.data.infos, view, temp, (l) => t(`weather.series.${l}`));
    return {
      ...o,
      xAxis: { ...(o.xAxis as object), ...axis },
      yAxis: (o.yAxis as object[]).map((y) => ({ ...y, ...axis })),
    };
  }, [day.data, view, temp, t, axis]);
  const empty = !!option && (option.series as unknown[]).length === 0;
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
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            onChange={(d) => d && setDate(d)}
          />
        </Space>
      }
    >
      {day.isError ? (
        <Result
          status="warning"
          title={t('weather.loadFailed')}
          extra={<Button onClick={() => void day.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : day.isPending || !option ? (
        <Skeleton active />
      ) : empty ? (
        <Empty description={t('weather.noData')} />
      ) : (
        <EChart option={option} height={340} ariaLabel={t('weather.day.title')} />
      )}
    </Card>
  );
}
