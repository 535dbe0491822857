import { DeleteOutlined, EditOutlined, StarOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
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
import { energyText } from '@/shared/devices/energy';
import { withUnit } from '@/shared/devices/format';
import { liveClass, shownStatus } from '@/shared/devices/live';
import { StaleNotice } from '@/shared/devices/StaleNotice';
import '@/shared/devices/monitor.css';
import { useAxisStyle, withAxisStyle, type ChartOption } from '@/shared/charts';
import { formatNumber, MISSING } from '@/shared/format/number';
import { formatPlantTime, todayIn } from '@/shared/format/time';
import { formatPower } from '@/shared/format/units';
import { GuardedPopconfirm } from '@/shared/ui/guarded';
import {
  METER,
  meterRealtimeQuery,
  meterSeriesQuery,
  setMasterMeter,
  spanDate,
  type Span,
} from './api';
import { meterChartOption } from './chart';
import { meterKeys } from '@/shared/api/keys';

const SPANS: Span[] = ['day', 'month', 'year', 'total'];
const PICKER = { day: 'date', month: 'month', year: 'year' } as const;

/** device/meter/:sn: one meter's values per phase, its history, alias, master flag and delete. */
export default function MeterDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const client = useQueryClient();
  const sn = decodeURIComponent(useParams().sn ?? '');
  const rt = useQuery(meterRealtimeQuery(sn));
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const master = useMutation({
    mutationFn: (on: boolean) => setMasterMeter(sn, on),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: meterKeys.all });
      void message.success(t('common.saved'));
    },
  });
  if (!rt.isSuccess) return <DeviceLoadState kind={METER} query={rt} />;
  const r = rt.data;
  const phases = r.vip.map((v, i) => ({ ...v, phase: i + 1 }));
  return (
    <Flex vertical gap={16} className="monitor-page">
      <Card
        title={
          <DeviceTitle
            kind={METER}
            sn={r.sn}
            alias={r.alias}
            status={shownStatus(r.status, r.stale)}
          >
            {r.master && (
              <Tag color="green" data-testid="meter-master">
                {t('meters.master')}
              </Tag>
            )}
          </DeviceTitle>
        }
        extra={
          r.editable && (
            <Space wrap>
              <Button icon={<EditOutlined />} onClick={() => setRenaming(true)}>
                {t('meters.rename.button')}
              </Button>
              {r.plant && (
                <GuardedPopconfirm
                  title={r.master ? t('meters.masterOff') : t('meters.masterOn')}
                  okText={t('common.confirm')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => master.mutate(!r.master)}
                >
                  <Button icon={<StarOutlined />} loading={master.isPending}>
                    {r.master ? t('meters.unsetMaster') : t('meters.setMaster')}
                  </Button>
                </GuardedPopconfirm>
              )}
              <Button danger icon={<DeleteOutlined />} onClick={() => setDeleting(true)}>
                {t('meters.delete.button')}
              </Button>
            </Space>
          )
        }
      >
        <StaleNotice stale={r.stale} updateAt={r.updateAt} zone={r.timezone} />
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, lg: 4 }}
          data-testid="meter-realtime"
          className={liveClass(r.stale)}
          data-stale={r.stale ? 'true' : 'false'}
          style={{ marginTop: r.stale ? 16 : 0 }}
        >
          <Descriptions.Item label={t('meters.field.plant')}>
            {r.plant?.name ?? MISSING}
          </Descriptions.Item>
          <Descriptions.Item label={t('meters.field.gateway')}>
            {r.gsn ?? MISSING}
          </Descriptions.Item>
          <Descriptions.Item label={t('meters.field.power')}>
            <span data-testid="meter-power">{formatPower(r.power)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('meters.field.pf')}>{formatNumber(r.pf)}</Descriptions.Item>
          <Descriptions.Item label={t('meters.field.frequency')}>
            {withUnit(r.fac, 'Hz')}
          </Descriptions.Item>
          <Descriptions.Item label={t('meters.field.todayImport')}>
            {energyText(r.etodayImport)}
          </Descriptions.Item>
          <Descriptions.Item label={t('meters.field.todayExport')}>
            {energyText(r.etodayExport)}
          </Descriptions.Item>
          <Descriptions.Item label={t('meters.field.totalImport')}>
            {energyText(r.totalImport)}
          </Descriptions.Item>
          <Descriptions.Item label={t('meters.field.totalExport')}>
            {energyText(r.totalExport)}
          </Descriptions.Item>
          <Descriptions.Item label={t('meters.field.time')}>
            <span data-testid="meter-time">{formatPlantTime(r.time, r.timezone)}</span>
          </Descriptions.Item>
        </Descriptions>
        <Table
          size="small"
          rowKey="phase"
          pagination={false}
          data-testid="meter-phases"
          className={liveClass(r.stale)}
          style={{ marginTop: 16 }}
          dataSource={phases}
          locale={{ emptyText: <Empty description={t('meters.noValues')} /> }}
          columns={[
            { key: 'phase', title: t('meters.phase.name'), render: (_, p) => `L${p.phase}` },
            {
              key: 'v',
              title: t('meters.phase.voltage'),
              align: 'right',
              render: (_, p) => withUnit(p.volt, 'V'),
            },
            {
              key: 'i',
              title: t('meters.phase.current'),
              align: 'right',
              render: (_, p) => withUnit(p.current, 'A'),
            },
            {
              key: 'p',
              title: t('meters.phase.power'),
              align: 'right',
              render: (_, p) => withUnit(p.power, 'W'),
            },
          ]}
        />
      </Card>
      <HistoryCard sn={r.sn} zone={r.timezone ?? 'UTC'} />
      {renaming && (
        <RenameDeviceDialog
          kind={METER}
          sn={r.sn}
          alias={r.alias}
          open
          onClose={() => setRenaming(false)}
        />
      )}
      <DeleteDeviceDialog
        kind={METER}
        sn={r.sn}
        open={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate('/device/meter')}
      />
    </Flex>
  );
}

function HistoryCard({ sn, zone }: { sn: string; zone: string }) {
  const { t } = useTranslation();
  const axis = useAxisStyle();
  const [span, setSpan] = useState<Span>('day');
  const [date, setDate] = useState<Dayjs>(() => todayIn(zone));
  const series = useQuery(meterSeriesQuery(sn, span, spanDate(span, date)));
  const option = useMemo<ChartOption | null>(
    () =>
      series.data
        ? withAxisStyle(
            meterChartOption(
              series.data.infos,
              span,
              (l) => t(`meters.series.${l}`),
              date.format('YYYY-MM-DD'),
              zone,
            ),
            axis,
          )
        : null,
    [series.data, span, t, axis, date, zone],
  );
  // The controls sit in the body: in the card's header they would squeeze the title on a phone.
  return (
    <Card title={t('meters.history')} data-testid="meter-history">
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented
          value={span}
          onChange={(v) => setSpan(v as Span)}
          options={SPANS.map((s) => ({ value: s, label: t(`meters.span.${s}`) }))}
        />
        {span !== 'total' && (
          <DatePicker
            aria-label={t('meters.date')}
            picker={PICKER[span]}
            value={date}
            allowClear={false}
            disabledDate={(d) => d.isAfter(todayIn(zone), 'day')}
            onChange={(d) => d && setDate(d)}
          />
        )}
      </Space>
      <ChartBody kind={METER} query={series} option={option} label={t('meters.history')} />
    </Card>
  );
}
