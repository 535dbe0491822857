import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import {
  Button,
  Card,
  DatePicker,
  Empty,
  Flex,
  Input,
  Result,
  Space,
  Table,
  Typography,
  type TableProps,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { rangePresets } from '../format/dateRanges';

/** What every log listing is asked with: its page and its day range (empty is "any"). */
export interface LogQuery {
  page: number;
  limit: number;
  sdate: string;
  edate: string;
}

/** A page of a log listing as the server answers it. */
export interface LogPage<T> {
  pageSize: number;
  pageNumber: number;
  total: number;
  infos: T[];
}

/** A free-text filter: typed into a search box, applied on search. */
export interface LogSearch<Q> {
  field: keyof Q & string;
  label: string;
  testId?: string;
}

interface LogTableProps<T, Q extends LogQuery, K extends QueryKey> {
  title: string;
  /** Prefix of the title's and the table's test ids (`<prefix>-title`, `<prefix>-table`). */
  testId: string;
  initialQuery: Q;
  queryOptions: (query: Q) => UseQueryOptions<LogPage<T>, Error, LogPage<T>, K>;
  /** The control left of the search boxes (a kind or action choice). */
  kindFilter: (query: Q, update: (patch: Partial<Q>) => void) => ReactNode;
  searches: LogSearch<Q>[];
  datesLabel: string;
  loadFailed: string;
  empty: string;
  noMatch: string;
  columns: TableProps<T>['columns'];
  scrollX: number;
  expandable?: TableProps<T>['expandable'];
}

/** A log screen: a filter bar (kind, searches, day range), then the paged table. */
export function LogTable<T extends { id: number }, Q extends LogQuery, K extends QueryKey>(
  p: LogTableProps<T, Q, K>,
) {
  const { t } = useTranslation();
  const [query, setQuery] = useState<Q>(p.initialQuery);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const list = useQuery(p.queryOptions(query));
  const update = (patch: Partial<Q>) => setQuery((q) => ({ ...q, page: 1, ...patch }));
  const filtered = Object.entries(query).some(
    ([k, v]) => !['page', 'limit'].includes(k) && v !== '',
  );

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid={`${p.testId}-title`}>
          {p.title}
        </Typography.Title>
      }
    >
      <Flex gap={12} wrap justify="space-between" style={{ marginBottom: 16 }}>
        {p.kindFilter(query, update)}
        <Space wrap>
          {p.searches.map((s) => (
            <Input.Search
              key={s.field}
              allowClear
              placeholder={s.label}
              aria-label={s.label}
              value={typed[s.field] ?? ''}
              onChange={(e) => setTyped((v) => ({ ...v, [s.field]: e.target.value }))}
              onSearch={(v) => update({ [s.field]: v } as Partial<Q>)}
              style={{ width: 200 }}
              data-testid={s.testId}
            />
          ))}
          <DatePicker.RangePicker
            presets={rangePresets(t)}
            aria-label={p.datesLabel}
            onChange={(range: [Dayjs | null, Dayjs | null] | null) =>
              update({
                sdate: range?.[0]?.format('YYYY-MM-DD') ?? '',
                edate: range?.[1]?.format('YYYY-MM-DD') ?? '',
              } as Partial<Q>)
            }
          />
        </Space>
      </Flex>
      {list.isError ? (
        <Result
          status="warning"
          title={p.loadFailed}
          extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <Table<T>
          rowKey="id"
          size="middle"
          scroll={{ x: p.scrollX }}
          loading={list.isFetching && !list.data}
          columns={p.columns}
          dataSource={list.data?.infos ?? []}
          data-testid={`${p.testId}-table`}
          expandable={p.expandable}
          locale={{ emptyText: <Empty description={filtered ? p.noMatch : p.empty} /> }}
          pagination={{
            current: query.page,
            pageSize: query.limit,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            onChange: (page, limit) => setQuery((q) => ({ ...q, page, limit })),
          }}
        />
      )}
    </Card>
  );
}
