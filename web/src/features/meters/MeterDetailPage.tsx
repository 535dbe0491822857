import { ArrowLeftOutlined, DeleteOutlined, EditOutlined, StarOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Badge,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Empty,
  Flex,
  Popconfirm,
  Result,
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
import { EChart, useAxisStyle, type ChartOption } from '@/shared/charts';
import { formatCompact, formatNumber, MISSING } from '@/shared/format/number';
import { isApiError } from '@/shared/http';
import {
  meterKeys,
  meterRealtimeQuery,
  meterSeriesQuery,
  setMasterMeter,
  spanDate,
  type Span,
} from './api';
import { meterChartOption } from './chart';
import { DeleteMeterDialog, RenameMeterDialog } from './dialogs';
import { energyText } from './energy';
import { deviceStatus } from './status';

const SPANS: Span[] = ['day', 'month', 'year', 'total'];
const PICKER = { day: 'date', month: 'month', year: 'year' } as const;
const withUnit = (v: string | number | null | undefined, unit: string) =>
  v === null || v === undefined ? MISSING : `${formatNumber(v)} ${unit}`;

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
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate('/device/meter')}>
      {t('meters.back')}
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
        title={missing ? t('meters.missing') : t('meters.loadFailed')}
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
  const phases = r.vip.map((v, i) => ({ ...v, phase: i + 1 }));
  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <Flex gap={12} align="center" wrap>
            {back}
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="meter-title">
              {r.sn}
            </Typography.Title>
            {r.alias && <Typography.Text type="secondary">{r.alias}</Typography.Text>}
            <Badge color={status.color} text={t(`meters.status.${status.key}`)} />
            {r.master && (
              <Tag color="green" data-testid="meter-master">
                {t('meters.master')}
              </Tag>
            )}
          </Flex>
        }
        extra={
          r.editable && (
            <Space wrap>
              <Button icon={<EditOutlined />} onClick={() => setRenaming(true)}>
                {t('meters.rename.button')}
              </Button>
              {r.plant && (
                <Popconfirm
                  title={r.master ? t('meters.masterOff') : t('meters.masterOn')}
                  okText={t('common.confirm')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => master.mutate(!r.master)}
                >
                  <Button icon={<StarOutlined />} loading={master.isPending}>
                    {r.master ? t('meters.unsetMaster') : t('meters.setMaster')}
                  </Button>
                </Popconfirm>
              )}
              <Button danger icon={<DeleteOutlined />} onClick={() => setDeleting(true)}>
                {t('meters.delete.button')}
              </Button>
            </Space>
          )
        }
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }} data-testid="meter-realtime">
          <Descriptions.Item label={t('meters.field.plant')}>
            {r.plant?.name ?? MISSING}
          </Descriptions.Item>
          <Descriptions.Item label={t('meters.field.gateway')}>
            {r.gsn ?? MISSING}
          </Descriptions.Item>
          <Descriptions.Item label={t('meters.field.power')}>
            <span data-testid="meter-power">{formatCompact(r.power, 'W')}</span>
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
          <Descriptions.Item label={t('meters.field.time')}>{r.time ?? MISSING}</Descriptions.Item>
        </Descriptions>
        <Table
          size="small"
          rowKey="phase"
          pagination={false}
          data-testid="meter-phases"
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
      <HistoryCard sn={r.sn} />
      {renaming && (
        <RenameMeterDialog sn={r.sn} alias={r.alias} open onClose={() => setRenaming(false)} />
      )}
      <DeleteMeterDialog
        sn={r.sn}
        open={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate('/device/meter')}
      />
    </Flex>
  );
}

function HistoryCard({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const axis = useAxisStyle();
  const [span, setSpan] = useState<Span>('day');
  const [date, setDate] = useState<Dayjs>(dayjs());
  const series = useQuery(meterSeriesQuery(sn, span, spanDate(span, date)));
  const option = useMemo<ChartOption | null>(() => {
    if (!series.data) return null;
    const o = meterChartOption(series.data.infos, span, (l) => t(`meters.series.${l}`));
    return {
      ...o,
      xAxis: { ...(o.xAxis as object), ...axis },
      yAxis: (o.yAxis as object[]).map((y) => ({ ...y, ...axis })),
    };
  }, [series.data, span, t, axis]);
  const empty = !!option && (option.series as unknown[]).length === 0;
  return (
    <Card
      title={t('meters.history')}
      data-testid="meter-history"
      extra={
        <Space wrap>
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
              disabledDate={(d) => d.isAfter(dayjs(), 'day')}
              onChange={(d) => d && setDate(d)}
            />
          )}
        </Space>
      }
    >
      {series.isError ? (
        <Result
          status="warning"
          title={t('meters.loadFailed')}
          extra={<Button onClick={() => void series.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : series.isPending || !option ? (
        <Skeleton active />
      ) : empty ? (
        <Empty description={t('meters.noData')} />
      ) : (
        <EChart option={option} height={340} ariaLabel={t('meters.history')} />
      )}
    </Card>
  );
}
