import { DeleteOutlined } from '@ant-design/icons';
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
  Grid,
  Progress,
  Result,
  Row,
  Segmented,
  Skeleton,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ChartBody, DeviceLoadState, DeviceTitle } from '@/shared/devices/DetailParts';
import { DeleteDeviceDialog } from '@/shared/devices/dialogs';
import { energyText } from '@/shared/devices/energy';
import { withUnit } from '@/shared/devices/format';
import { liveClass, shownStatus } from '@/shared/devices/live';
import { StaleNotice } from '@/shared/devices/StaleNotice';
import '@/shared/devices/monitor.css';
import { statusOf } from '@/shared/ui/status';
import { formatTemp, type TempUnit } from '@/shared/devices/temp';
import { useAxisStyle, withAxisStyle, type ChartOption } from '@/shared/charts';
import { formatNumber, MISSING } from '@/shared/format/number';
import { formatPlantTime } from '@/shared/format/time';
import { formatPower } from '@/shared/format/units';
import { useCan } from '@/shared/permissions';
import { useCurrentUser } from '@/shared/user';
import {
  BATTERY,
  batteryDayQuery,
  batteryInfoQuery,
  batteryRealtimeQuery,
  batterySlavesQuery,
  type BatteryInfo,
  type BatteryRealtime,
  type Pack,
} from './api';
import { cellSpreadMv, cellTiles } from './cells';
import './batteries.css';
import { dayChartOption } from './chart';

/** device/battery/:sn: one battery stack, its cells, packs and day curve. */
export default function BatteryDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sn = decodeURIComponent(useParams().sn ?? '');
  const info = useQuery(batteryInfoQuery(sn));
  const canDelete = useCan('battery.delete') && info.data?.deletable === true;
  const [deleting, setDeleting] = useState(false);
  if (!info.isSuccess) return <DeviceLoadState kind={BATTERY} query={info} />;
  const b = info.data;
  return (
    <Flex vertical gap={16} className="monitor-page">
      <Card
        title={
          <DeviceTitle
            kind={BATTERY}
            sn={b.sn}
            alias={b.alias}
            status={shownStatus(b.status, b.stale)}
          >
            {!b.master && <Tag>{t('batteries.slaveOf', { sn: b.masterSn })}</Tag>}
          </DeviceTitle>
        }
        extra={
          canDelete && (
            <Button danger icon={<DeleteOutlined />} onClick={() => setDeleting(true)}>
              {t('batteries.delete.button')}
            </Button>
          )
        }
      >
        <InfoBlock b={b} />
      </Card>
      <RealtimeBlock sn={b.sn} />
      {b.master && <PacksBlock sn={b.sn} />}
      <DayBlock sn={b.sn} zone={b.timezone ?? 'UTC'} />
      <DeleteDeviceDialog
        kind={BATTERY}
        sn={b.sn}
        open={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate('/device/battery')}
      />
    </Flex>
  );
}

function InfoBlock({ b }: { b: BatteryInfo }) {
  const { t } = useTranslation();
  const versions = Object.entries(b.versions ?? {})
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return (
    <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} data-testid="battery-info">
      <Descriptions.Item label={t('batteries.field.model')}>{b.model || MISSING}</Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.versions')}>
        {versions || MISSING}
      </Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.plant')}>
        {b.plant?.name ?? MISSING}
      </Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.gateway')}>{b.gsn ?? MISSING}</Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.inverter')}>
        {(b.master && b.parentSn) || MISSING}
      </Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.capacity')}>
        {withUnit(b.capacity, 'Ah')}
      </Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.cycles')}>
        {formatNumber(b.cycles)}
      </Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.soh')}>{withUnit(b.soh, '%')}</Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.packs')}>{b.packCount}</Descriptions.Item>
    </Descriptions>
  );
}

function relay(t: (k: string) => string, v: boolean | null, on: string, off: string) {
  if (v === null) return <Tag>{MISSING}</Tag>;
  return <Tag color={v ? 'green' : 'default'}>{t(v ? on : off)}</Tag>;
}

function RealtimeBlock({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const rt = useQuery(batteryRealtimeQuery(sn));
  if (rt.isError)
    return (
      <Card title={t('batteries.realtime')}>
        <Result
          status="warning"
          title={t('batteries.loadFailed')}
          extra={<Button onClick={() => void rt.refetch()}>{t('common.refresh')}</Button>}
        />
      </Card>
    );
  if (rt.isPending)
    return (
      <Card title={t('batteries.realtime')}>
        <Skeleton active />
      </Card>
    );
  const r = rt.data;
  const pct = (v: string | null) => (v === null ? 0 : Math.max(0, Math.min(100, Number(v))));
  const stale = r.stale === true;
  return (
    <Row gutter={[16, 16]}>
      {stale && (
        <Col span={24}>
          <StaleNotice stale updateAt={r.updateAt} zone={r.timezone} />
        </Col>
      )}
      <Col xs={24} lg={10}>
        <Card
          title={t('batteries.realtime')}
          style={{ height: '100%' }}
          className={liveClass(stale)}
          data-stale={stale ? 'true' : 'false'}
          data-testid="battery-realtime"
        >
          <Typography.Text type="secondary" data-testid="battery-time">
            {formatPlantTime(r.time, r.timezone)}
          </Typography.Text>
          <Flex justify="space-around" wrap gap={16}>
            <Flex vertical align="center" data-testid="battery-soc">
              <Progress type="dashboard" percent={pct(r.soc)} format={() => withUnit(r.soc, '%')} />
              <Typography.Text>{t('batteries.field.soc')}</Typography.Text>
            </Flex>
            <Flex vertical align="center" data-testid="battery-soh">
              <Progress
                type="dashboard"
                percent={pct(r.soh)}
                strokeColor="#2ec4d6"
                format={() => withUnit(r.soh, '%')}
              />
              <Typography.Text>{t('batteries.field.soh')}</Typography.Text>
            </Flex>
          </Flex>
          <Descriptions size="small" column={{ xs: 1, sm: 2 }} style={{ marginTop: 16 }}>
            <Descriptions.Item label={t('batteries.field.voltage')}>
              {withUnit(r.voltage, 'V')}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.current')}>
              {withUnit(r.current, 'A')}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.power')}>
              <span data-testid="battery-power">{formatPower(r.power)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.cycles')}>
              {formatNumber(r.cycles)}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.tempMax')}>
              <span data-testid="battery-temp-max">{formatTemp(r.tempMax, temp)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.tempMin')}>
              {formatTemp(r.tempMin, temp)}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.capacity')}>
              {withUnit(r.capacity, 'Ah')}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.capacityRemaining')}>
              {withUnit(r.capacityRemaining, 'Ah')}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.chargeLimit')}>
              {withUnit(r.chargeCurrentLimit, 'A')}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.dischargeLimit')}>
              {withUnit(r.dischargeCurrentLimit, 'A')}
            </Descriptions.Item>
          </Descriptions>
        </Card>
      </Col>
      <Col xs={24} lg={14}>
        <Flex vertical gap={16} style={{ height: '100%' }}>
          <Card
            size="small"
            title={t('batteries.relays')}
            data-testid="battery-relays"
            className={liveClass(stale)}
          >
            <Space wrap>
              <span>{t('batteries.relay.charge')}</span>
              {relay(t, r.chargeRelay, 'batteries.relay.closed', 'batteries.relay.open')}
              <span>{t('batteries.relay.discharge')}</span>
              {relay(t, r.dischargeRelay, 'batteries.relay.closed', 'batteries.relay.open')}
              {relay(t, r.charging, 'batteries.state.charging', 'batteries.state.notCharging')}
              {relay(
                t,
                r.discharging,
                'batteries.state.discharging',
                'batteries.state.notDischarging',
              )}
              {relay(t, r.balancing, 'batteries.state.balancing', 'batteries.state.notBalancing')}
              {(r.alarmWord ?? 0) > 0 && <Tag color="orange">{t('batteries.state.alarm')}</Tag>}
              {(r.faultWord ?? 0) > 0 && <Tag color="red">{t('batteries.state.fault')}</Tag>}
            </Space>
          </Card>
          <EnergyBlock r={r} />
          <CellsBlock r={r} stale={stale} />
        </Flex>
      </Col>
    </Row>
  );
}

function EnergyBlock({ r }: { r: BatteryRealtime }) {
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

function CellsBlock({ r, stale }: { r: BatteryRealtime; stale: boolean }) {
  const { t } = useTranslation();
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const tiles = cellTiles(r);
  const spread = cellSpreadMv(r);
  const label = (tile: (typeof tiles)[number]) =>
    tile.kind === 'cell'
      ? tile.pack === null
        ? t('batteries.cells.cell', { no: tile.cell })
        : t('batteries.cells.packCell', { pack: tile.pack, no: tile.cell })
      : t(tile.kind === 'packMax' ? 'batteries.cells.packMax' : 'batteries.cells.packMin', {
          pack: tile.pack,
        });
  return (
    <Card
      size="small"
      title={t('batteries.cells.title')}
      data-testid="battery-cells"
      className={liveClass(stale)}
    >
      {tiles.length === 0 ? (
        <Empty description={t('batteries.cells.none')} />
      ) : (
        <Flex vertical gap={8}>
          {spread !== null && (
            <Typography.Text type="secondary" data-testid="cell-spread">
              {t('batteries.cells.spread', { mv: spread })}
            </Typography.Text>
          )}
          <div className="cell-grid">
            {tiles.map((tile) => (
              <div
                key={tile.key}
                data-testid="cell-tile"
                data-extreme={tile.extreme ?? ''}
                className={['cell-tile', tile.extreme ? `is-${tile.extreme}` : ''].join(' ')}
              >
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {label(tile)}
                </Typography.Text>
                <div>
                  <Typography.Text strong data-testid="cell-voltage">
                    {tile.voltage.toFixed(3)} V
                  </Typography.Text>
                  {tile.extreme && (
                    <Tag
                      color={tile.extreme === 'max' ? 'red' : 'blue'}
                      style={{ marginInlineStart: 6 }}
                    >
                      {t(`batteries.cells.${tile.extreme}`)}
                    </Tag>
                  )}
                </div>
                {tile.temp !== null && (
                  <Typography.Text type="secondary" data-testid="cell-temp">
                    {formatTemp(tile.temp, temp)}
                  </Typography.Text>
                )}
              </div>
            ))}
          </div>
        </Flex>
      )}
    </Card>
  );
}

function PacksBlock({ sn }: { sn: string }) {
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

const VIEWS = {
  socPower: ['soc', 'power'],
  voltageCurrent: ['voltage', 'current'],
  temp: ['temp'],
} as const;
type View = keyof typeof VIEWS;

function DayBlock({ sn, zone }: { sn: string; zone: string }) {
  const { t } = useTranslation();
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const axis = useAxisStyle();
  const [date, setDate] = useState<Dayjs>(dayjs());
  const [view, setView] = useState<View>('socPower');
  const screens = Grid.useBreakpoint();
  const day = useQuery(batteryDayQuery(sn, date.format('YYYY-MM-DD')));
  const option = useMemo<ChartOption | null>(
    () =>
      day.data
        ? withAxisStyle(
            dayChartOption(
              day.data.infos,
              VIEWS[view],
              temp,
              (l) => t(`batteries.series.${l}`),
              date.format('YYYY-MM-DD'),
              zone,
            ),
            axis,
          )
        : null,
    [day.data, view, temp, t, axis, date, zone],
  );
  // The controls sit in the body: in the card's header they would squeeze the title on a phone.
  return (
    <Card title={t('batteries.day.title')} data-testid="battery-day">
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented
          value={view}
          // stacked on a phone: side by side the three views are wider than the screen
          vertical={screens.sm === false}
          onChange={(v) => setView(v as View)}
          options={(Object.keys(VIEWS) as View[]).map((v) => ({
            value: v,
            label: t(`batteries.day.${v}`),
          }))}
        />
        <DatePicker
          aria-label={t('batteries.day.date')}
          value={date}
          allowClear={false}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          onChange={(d) => d && setDate(d)}
        />
      </Space>
      <ChartBody kind={BATTERY} query={day} option={option} label={t('batteries.day.title')} />
      <Typography.Text type="secondary">{t('batteries.day.zone', { zone })}</Typography.Text>
    </Card>
  );
}
