import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, DatePicker, Empty, Flex, Select, type TableProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rangePresets } from '@/shared/format/dateRanges';
import { MISSING } from '@/shared/format/number';
import { isApiError } from '@/shared/http';
import { PagedTable } from '@/shared/list/PagedTable';
import { useListParams } from '@/shared/list/useListQuery';
import { useNarrow } from '@/shared/ui/useNarrow';
import {
  downloadDynamic,
  DYNAMIC_FILTERS,
  dynamicColumnsQuery,
  dynamicParams,
  dynamicQuery,
  type DynamicRow,
  plantDevicesQuery,
} from './api';
import { PlantPicker } from './PlantPicker';
import { MAX_DYNAMIC_DAYS, splitColumns, withinDynamicRange } from './dynamic';

/**
 * Dynamic data: one device's reports over at most 31 days (plant-local), the values the user
 * chooses as columns, newest first, and the same as an .xlsx.
 */
export function DynamicTab({ mayExport }: { mayExport: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const phone = useNarrow();
  const { query, update, setPage } = useListParams(DYNAMIC_FILTERS, 20);
  const [downloading, setDownloading] = useState(false);
  const today = dayjs().format('YYYY-MM-DD');
  const params = dynamicParams(query, today);
  const sdate = String(params.sdate);
  const edate = String(params.edate);
  const devices = useQuery({
    ...plantDevicesQuery(query.plantId ?? 0),
    enabled: query.plantId !== null,
  });
  const available = useQuery(dynamicColumnsQuery(query.sn, sdate, edate));
  const list = useQuery(dynamicQuery(params));
  const chosen = splitColumns(query.column);
  const w = (px: number) => (phone ? '100%' : px);

  const columns: TableProps<DynamicRow>['columns'] = [
    {
      key: 'time',
      title: t('workdata.dynamic.time'),
      width: 170,
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      render: (_, r) => r.time ?? MISSING,
    },
    ...(list.data?.columns ?? []).map((c) => ({
      key: c,
      title: c,
      align: 'right' as const,
      onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' as const } }),
      render: (_: unknown, r: DynamicRow) => r[c] ?? MISSING,
    })),
  ];

  const download = () => {
    setDownloading(true);
    downloadDynamic(params)
      .catch((e: unknown) =>
        message.error(isApiError(e) ? e.message : t('workdata.downloadFailed')),
      )
      .finally(() => setDownloading(false));
  };

  const range: [Dayjs, Dayjs] = [dayjs(sdate), dayjs(edate)];
  const deviceOptions = (devices.data ?? []).map((d) => ({
    value: d.sn,
    label: d.alias ? `${d.sn} (${d.alias})` : d.sn,
  }));

  return (
    <Flex vertical gap={16} data-testid="dynamic-tab">
      <Flex gap={12} wrap>
        <PlantPicker
          value={query.plantId}
          onChange={(plantId) => update({ plantId, sn: '', column: '' })}
          width={w(220)}
          testId="dynamic-plant"
        />
        <Select<string>
          showSearch
          allowClear
          placeholder={t('workdata.dynamic.device')}
          aria-label={t('workdata.dynamic.device')}
          disabled={query.plantId === null}
          value={query.sn || undefined}
          onChange={(sn) => update({ sn: sn ?? '', column: '' })}
          options={deviceOptions}
          loading={devices.isFetching}
          style={{ width: w(260) }}
          data-testid="dynamic-device"
        />
        <DatePicker.RangePicker
          aria-label={t('workdata.filter.range')}
          allowClear={false}
          presets={rangePresets(t).filter((p) => withinDynamicRange(p.value))}
          value={range}
          disabledDate={(d, info) =>
            d.isAfter(dayjs(), 'day') ||
            (info.from !== undefined && Math.abs(d.diff(info.from, 'day')) >= MAX_DYNAMIC_DAYS)
          }
          onChange={(v) =>
            v?.[0] &&
            v[1] &&
            update({ sdate: v[0].format('YYYY-MM-DD'), edate: v[1].format('YYYY-MM-DD') })
          }
          style={phone ? { width: '100%' } : undefined}
          data-testid="dynamic-range"
        />
        <Select<string[]>
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          placeholder={t('workdata.dynamic.allColumns')}
          aria-label={t('workdata.dynamic.columns')}
          disabled={!query.sn}
          value={chosen}
          onChange={(v) => update({ column: v.join(',') })}
          options={(available.data ?? []).map((c) => ({ value: c, label: c }))}
          loading={available.isFetching}
          style={{ width: w(320) }}
          data-testid="dynamic-columns"
        />
        {mayExport && (
          <Button
            icon={<DownloadOutlined />}
            loading={downloading}
            disabled={!query.sn}
            onClick={download}
            block={phone}
            data-testid="dynamic-download"
          >
            {t('workdata.download')}
          </Button>
        )}
      </Flex>
      {!query.sn ? (
        <Empty description={t('workdata.dynamic.pick')} data-testid="dynamic-pick" />
      ) : (
        <div style={{ overflowX: 'auto' }}>
          <PagedTable<DynamicRow>
            list={list}
            page={query.page}
            limit={query.limit}
            onPage={setPage}
            columns={columns}
            testId="dynamic-table"
            errorTestId="dynamic-error"
            loadFailed={isApiError(list.error) ? list.error.message : t('workdata.loadFailed')}
            empty={t('workdata.dynamic.empty')}
            total={(total) => t('workdata.total', { total })}
            compact={phone}
          />
        </div>
      )}
    </Flex>
  );
}
