import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Empty, Table, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../http';
import { Problem } from '../ui/Problem';

/**
 * A list screen's table of one page from the server (`useListQuery`): the failure with a way
 * to retry, the empty state (with an action when there is one), and the pager.
 */
export function PagedTable<T extends object>({
  list,
  page,
  limit,
  onPage,
  columns,
  testId,
  errorTestId,
  loadFailed,
  empty,
  emptyAction,
  total,
  compact,
  rowSelection,
}: {
  list: UseQueryResult<Page<T>>;
  page: number;
  limit: number;
  onPage: (page: number, limit?: number) => void;
  columns: TableProps<T>['columns'];
  testId: string;
  errorTestId: string;
  loadFailed: string;
  /** What the empty table says (no rows at all, or none matching the filters). */
  empty: string;
  emptyAction?: ReactNode;
  total: (count: number) => string;
  /** A phone: smaller rows, no page-size choice. */
  compact: boolean;
  /** Rows the user may select (for an action on several). */
  rowSelection?: TableProps<T>['rowSelection'];
}) {
  const { t } = useTranslation();
  if (list.isError) {
    return (
      <Problem
        title={loadFailed}
        testId={errorTestId}
        extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
      />
    );
  }
  return (
    <Table<T>
      rowKey="id"
      rowSelection={rowSelection}
      data-testid={testId}
      columns={columns}
      dataSource={list.data?.infos ?? []}
      loading={list.isFetching}
      size={compact ? 'small' : 'middle'}
      locale={{ emptyText: <Empty description={empty}>{emptyAction}</Empty> }}
      pagination={{
        current: page,
        pageSize: limit,
        total: list.data?.total ?? 0,
        showSizeChanger: !compact,
        pageSizeOptions: [10, 20, 50, 100],
        showTotal: total,
      }}
      onChange={(p) => onPage(p.current ?? 1, p.pageSize)}
    />
  );
}
