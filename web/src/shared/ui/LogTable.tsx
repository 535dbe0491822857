import type { QueryKey, UseQueryOptions } from '@tanstack/react-query';
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
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { rangePresets } from '../format/dateRanges';
import { useDraft } from '../hooks/useDraft';
import type { Page } from '../http';
import type { ListQuery, Param } from '../list/params';
import { cardColumn } from '../list/columns';
import { useListQuery } from '../list/useListQuery';
import { useNarrow } from './useNarrow';

/** The filters every log has: its day range (empty is "any"), next to its own. */
type LogFilters = { sdate: Param<string>; edate: Param<string> } & Record<string, Param<unknown>>;

/** A free-text filter: typed into a search box, applied on search. */
export interface LogSearch<S> {
  field: keyof S & string;
  label: string;
  testId?: string;
}

interface LogTableProps<T, S extends LogFilters, K extends QueryKey> {
  title: string;
  /** Prefix of the title's and the table's test ids (`<prefix>-title`, `<prefix>-table`). */
  testId: string;
  /** The log's filters (a module-level constant), kept in the URL. */
  filters: S;
  queryOptions: (query: ListQuery<S>) => UseQueryOptions<Page<T>, Error, Page<T>, K>;
  /** The control left of the search boxes (a kind or action choice). */
  kindFilter: (query: ListQuery<S>, update: (patch: Partial<ListQuery<S>>) => void) => ReactNode;
  searches: LogSearch<S>[];
  datesLabel: string;
  loadFailed: string;
  empty: string;
  noMatch: string;
  columns: TableProps<T>['columns'];
  scrollX: number;
  expandable?: TableProps<T>['expandable'];
  /** A row on a phone, in one column instead of the table's (none: the columns scroll). */
  card?: (row: T) => ReactNode;
}

/** A search box of a log: the typed text until it is applied. */
function SearchBox({
  label,
  applied,
  onSearch,
  testId,
}: {
  label: string;
  applied: string;
  onSearch: (text: string) => void;
  testId?: string;
}) {
  const [text, setText] = useDraft(applied);
  return (
    <Input.Search
      allowClear
      placeholder={label}
      aria-label={label}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onSearch={onSearch}
      style={{ width: 200 }}
      data-testid={testId}
    />
  );
}

/** A log screen: a filter bar (kind, searches, day range), then the paged table. */
export function LogTable<T extends { id: number }, S extends LogFilters, K extends QueryKey>(
  p: LogTableProps<T, S, K>,
) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const { query, list, update, setPage, filtered } = useListQuery(p.filters, p.queryOptions);
  const cards = phone && p.card ? [cardColumn(p.title, p.card)] : null;
  const range: [Dayjs, Dayjs] | null =
    query.sdate && query.edate ? [dayjs(String(query.sdate)), dayjs(String(query.edate))] : null;

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
            <SearchBox
              key={s.field}
              label={s.label}
              applied={String(query[s.field])}
              onSearch={(v) => update({ [s.field]: v } as Partial<ListQuery<S>>)}
              testId={s.testId}
            />
          ))}
          <DatePicker.RangePicker
            presets={rangePresets(t)}
            aria-label={p.datesLabel}
            value={range}
            onChange={(picked: [Dayjs | null, Dayjs | null] | null) =>
              update({
                sdate: picked?.[0]?.format('YYYY-MM-DD') ?? '',
                edate: picked?.[1]?.format('YYYY-MM-DD') ?? '',
              } as Partial<ListQuery<S>>)
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
          size={cards ? 'small' : 'middle'}
          scroll={cards ? undefined : { x: p.scrollX }}
          loading={list.isFetching && !list.data}
          columns={cards ?? p.columns}
          dataSource={list.data?.infos ?? []}
          data-testid={`${p.testId}-table`}
          expandable={cards ? undefined : p.expandable}
          locale={{ emptyText: <Empty description={filtered ? p.noMatch : p.empty} /> }}
          pagination={{
            current: query.page,
            pageSize: query.limit,
            total: list.data?.total ?? 0,
            showSizeChanger: !phone,
            onChange: setPage,
          }}
        />
      )}
    </Card>
  );
}
