import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Empty,
  Flex,
  Segmented,
  Space,
  Table,
  Tag,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ChartBody, DeviceLoadState, DeviceTitle } from '@/shared/devices/DetailParts';
import { DeleteDeviceDialog, RenameDeviceDialog } from '@/shared/devices/dialogs';
import { withUnit } from '@/shared/devices/format';
import { liveClass, shownStatus } from '@/shared/devices/live';
import { StaleNotice } from '@/shared/devices/StaleNotice';
import '@/shared/devices/monitor.css';
import { EChart, useAxisStyle, withAxisStyle, type ChartOption } from '@/shared/charts';
import { MISSING } from '@/shared/format/number';
import { formatPlantTime, todayIn } from '@/shared/format/time';
import { formatPower } from '@/shared/format/units';
import {
  COMBINER,
  combinerRealtimeQuery,
  combinerSeriesQuery,
  type CombinerRealtime,
  type Span,
} from './api';
import { combinerChartOption, stringBarsOption, stringColor, stringNo } from './chart';

const SPANS: Span[] = ['day', 'month'];

/** A state bit: "OK" / the alarm in warning colour / not reported. */
function StateTag({ on, alarm, ok }: { on: boolean | null; alarm: string; ok: string }) {
  if (on === null) return <>{MISSING}</>;
  return on ? <Tag color="error">{alarm}</Tag> : <Tag color="success">{ok}</Tag>;
}

/** device/combiner/:sn: one combiner box's strings now, its history, alias and delete. */
export default function CombinerDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sn = decodeURIComponent(useParams().sn ?? '');
  const rt = useQuery(combinerRealtimeQuery(sn));
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  if (!rt.isSuccess) return <DeviceLoadState kind={COMBINER} query={rt} />;
  const r = rt.data;
  const weak = r.strings.filter((s) => s.weak).map((s) => s.no);
  return (
    <Flex vertical gap={16} className="monitor-page">
      <Card
        title={
          <DeviceTitle
            kind={COMBINER}
            sn={r.sn}
            alias={r.alias}
            status={shownStatus(r.status, r.stale)}
          />
        }
        extra={
          r.editable && (
            <Space wrap>
              <Button icon={<EditOutlined />} onClick={() => setRenaming(true)}>
                {t('combiner.rename.button')}
              </Button>
              <Button danger icon={<DeleteOutlined />} onClick={() => setDeleting(true)}>
                {t('combiner.delete.button')}
              </Button>
            </Space>
          )
        }
      >
        <StaleNotice stale={r.stale} updateAt={r.updateAt} zone={r.timezone} />
        <Summary r={r} />
      </Card>
      <StringsCard r={r} weak={weak} />
      <HistoryCard sn={r.sn} zone={r.timezone ?? 'UTC'} />
      {renaming && (
        <RenameDeviceDialog
          kind={COMBINER}
          sn={r.sn}
          alias={r.alias}
          open
          onClose={() => setRenaming(false)}
        />
      )}
      <DeleteDeviceDialog
        kind={COMBINER}
        sn={r.sn}
        open={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate(COMBINER.route)}
      />
    </Flex>
  );
}

function Summary({ r }: { r: CombinerRealtime }) {
  const { t } = useTranslation();
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 2, lg: 4 }}
      data-testid="combiner-realtime"
      className={liveClass(r.stale)}
      data-stale={r.stale ? 'true' : 'false'}
      style={{ marginTop: r.stale ? 16 : 0 }}
    >
      <Descriptions.Item label={t('combiner.field.plant')}>
        {r.plant?.name ?? MISSING}
      </Descriptions.Item>
      <Descriptions.Item label={t('combiner.field.gateway')}>{r.gsn ?? MISSING}</Descriptions.Item>
      <Descriptions.Item label={t('combiner.field.power')}>
        <span data-testid="combiner-power">{formatPower(r.power)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('combiner.field.busVoltage')}>
        {withUnit(r.busVoltage, 'V')}
      </Descriptions.Item>
      <Descriptions.Item label={t('combiner.field.totalCurrent')}>
        {withUnit(r.totalCurrent, 'A')}
      </Descriptions.Item>
      <Descriptions.Item label={t('combiner.field.temperature')}>
        {withUnit(r.temperature, '°C')}
      </Descriptions.Item>
      <Descriptions.Item label={t('combiner.field.etoday')}>
        {withUnit(r.etoday, 'kWh')}
      </Descriptions.Item>
      <Descriptions.Item label={t('combiner.field.etotal')}>
        {withUnit(r.etotal, 'kWh')}
      </Descriptions.Item>
      <Descriptions.Item label={t('combiner.field.fuse')}>
        <StateTag
          on={r.fuseBlown}
          alarm={t('combiner.state.fuseBlown')}
          ok={t('combiner.state.ok')}
        />
      </Descriptions.Item>
      <Descriptions.Item label={t('combiner.field.surge')}>
        <StateTag
          on={r.surgeTripped}
          alarm={t('combiner.state.surgeTripped')}
          ok={t('combiner.state.ok')}
        />
      </Descriptions.Item>
      <Descriptions.Item label={t('combiner.field.switch')}>
        <StateTag
          on={r.switchOpen}
          alarm={t('combiner.state.switchOpen')}
          ok={t('combiner.state.switchClosed')}
        />
      </Descriptions.Item>
      <Descriptions.Item label={t('combiner.field.time')}>
        {formatPlantTime(r.time, r.timezone)}
      </Descriptions.Item>
    </Descriptions>
  );
}

function StringsCard({ r, weak }: { r: CombinerRealtime; weak: number[] }) {
  const { t } = useTranslation();
  const axis = useAxisStyle();
  const name = (no: number) => t('combiner.stringName', { no });
  const option = useMemo(
    () =>
      withAxisStyle(
        stringBarsOption(r.strings, (no) => t('combiner.stringName', { no }), '⚠'),
        axis,
      ),
    [r.strings, t, axis],
  );
  return (
    <Card title={t('combiner.strings')} data-testid="combiner-strings-card">
      {weak.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="combiner-weak-alert"
          message={t('combiner.weakAlert', { strings: weak.map(name).join(', ') })}
        />
      )}
      {!r.judged && r.strings.length > 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('combiner.notJudged')}
        />
      )}
      {r.strings.length === 0 ? (
        <Empty description={t('combiner.noStrings')} />
      ) : (
        <>
          <div className={liveClass(r.stale)} data-testid="combiner-string-bars">
            <EChart option={option} height={260} ariaLabel={t('combiner.strings')} />
          </div>
          <Table
            size="small"
            rowKey="no"
            pagination={false}
            data-testid="combiner-string-table"
            className={liveClass(r.stale)}
            style={{ marginTop: 12 }}
            dataSource={r.strings}
            rowClassName={(s) => (s.weak ? 'combiner-weak-row' : '')}
            columns={[
              {
                key: 'no',
                title: t('combiner.string.name'),
                render: (_, s) => (
                  <Space size={6} wrap>
                    <span
                      aria-hidden
                      style={{
                        display: 'inline-block',
                        width: 10,
                        height: 10,
                        borderRadius: 2,
                        background: stringColor(s.no),
                      }}
                    />
                    {name(s.no)}
                    {s.weak && (
                      <Tag color="warning" data-testid="combiner-weak-tag">
                        {t('combiner.weak')}
                      </Tag>
                    )}
                  </Space>
                ),
              },
              {
                key: 'i',
                title: t('combiner.string.current'),
                align: 'right',
                render: (_, s) => withUnit(s.current, 'A'),
              },
              {
                key: 'v',
                title: t('combiner.string.voltage'),
                align: 'right',
                render: (_, s) => withUnit(s.voltage, 'V'),
              },
              {
                key: 'p',
                title: t('combiner.string.power'),
                align: 'right',
                render: (_, s) => formatPower(s.power),
              },
            ]}
          />
        </>
      )}
    </Card>
  );
}

function HistoryCard({ sn, zone }: { sn: string; zone: string }) {
  const { t } = useTranslation();
  const axis = useAxisStyle();
  const [span, setSpan] = useState<Span>('day');
  const [date, setDate] = useState<Dayjs>(() => todayIn(zone));
  const param = span === 'day' ? date.format('YYYY-MM-DD') : date.format('YYYY-MM');
  const series = useQuery(combinerSeriesQuery(sn, span, param));
  const option = useMemo<ChartOption | null>(() => {
    if (!series.data) return null;
    const label = (l: string) => {
      const no = stringNo(l);
      return no === null ? t(`combiner.series.${l}`) : t('combiner.stringName', { no });
    };
    return withAxisStyle(
      combinerChartOption(series.data.infos, span, label, date.format('YYYY-MM-DD'), zone),
      axis,
    );
  }, [series.data, span, t, axis, date, zone]);
  return (
    <Card title={t('combiner.history')} data-testid="combiner-history">
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented
          value={span}
          onChange={(v) => setSpan(v as Span)}
          options={SPANS.map((s) => ({ value: s, label: t(`combiner.span.${s}`) }))}
        />
        <DatePicker
          aria-label={t('combiner.date')}
          picker={span === 'day' ? 'date' : 'month'}
          value={date}
          allowClear={false}
          disabledDate={(d) => d.isAfter(todayIn(zone), 'day')}
          onChange={(d) => d && setDate(d)}
        />
      </Space>
      <ChartBody kind={COMBINER} query={series} option={option} label={t('combiner.history')} />
    </Card>
  );
}
