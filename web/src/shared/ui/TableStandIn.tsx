import { CaretDownOutlined, CaretUpOutlined } from '@ant-design/icons';
import { Spin, type TableColumnType, type TableProps } from 'antd';
import type { SorterResult, SortOrder } from 'antd/es/table/interface';
import type { HTMLAttributes, Key, ReactNode } from 'react';
import { PagerStandIn } from './PagerStandIn';

type Column<T> = TableColumnType<T>;

/** The cell's value at the column's `dataIndex` (a key or a path of keys). */
function valueAt<T>(row: T, column: Column<T>): unknown {
  const path = column.dataIndex === undefined ? [] : [column.dataIndex].flat();
  return path.reduce<unknown>(
    (v, k) =>
      v === null || typeof v !== 'object' ? undefined : (v as Record<string, unknown>)[k as string],
    row,
  );
}

/** antd's order after a click on a sortable header: ascending, descending, none. */
const nextOrder = (order: SortOrder | undefined): SortOrder =>
  order === 'ascend' ? 'descend' : order === 'descend' ? null : 'ascend';

const ARIA_SORT = { ascend: 'ascending', descend: 'descending' } as const;

function sorterOf<T>(column: Column<T> | undefined, order: SortOrder): SorterResult<T> {
  return {
    column,
    columnKey: column?.key,
    field: column?.dataIndex as SorterResult<T>['field'],
    order,
  };
}

/**
 * The plain table DeferredTable shows until antd's Table is in: flat columns with their titles,
 * `render`, `onCell`/`onHeaderCell`, `align`, `ellipsis` and `width`; controlled sorting
 * (`sortOrder`) and pagination; rows with `rowKey` and `rowClassName`; `locale.emptyText`, the
 * `loading` spinner and the size. Its look is antd's (standIns.css), so the swap does not
 * move the screen.
 */
export function TableStandIn<T extends object>({
  columns = [],
  dataSource = [],
  rowKey = 'key',
  rowClassName,
  loading,
  size = 'large',
  locale,
  pagination,
  onChange,
}: TableProps<T>) {
  const leaves = columns.filter((c): c is Column<T> => !('children' in c));
  const sorted = leaves.find((c) => c.sortOrder);
  const page = pagination ? { current: pagination.current, pageSize: pagination.pageSize } : {};
  const change = (
    paging: { current?: number; pageSize?: number },
    sorter: SorterResult<T>,
    action: 'sort' | 'paginate',
  ) => onChange?.(paging, {}, sorter, { action, currentDataSource: [...dataSource] });
  const sortBy = (column: Column<T>) =>
    change(page, sorterOf(column, nextOrder(column.sortOrder)), 'sort');

  const keyOf = (row: T, index: number): Key =>
    typeof rowKey === 'function' ? rowKey(row, index) : (row[rowKey as keyof T] as Key);
  const rowClass = (row: T, index: number) =>
    typeof rowClassName === 'function' ? rowClassName(row, index, 0) : (rowClassName ?? '');
  const emptyText =
    typeof locale?.emptyText === 'function' ? locale.emptyText() : locale?.emptyText;
  // antd lays a table with an ellipsis column out at fixed widths
  const fixed = leaves.some((c) => c.ellipsis);

  const header = (column: Column<T>, index: number) => {
    // antd's typing wants rc-table's column here: the same object
    const onHeader = column.onHeaderCell as
      ((c: Column<T>) => HTMLAttributes<HTMLElement>) | undefined;
    const own = onHeader?.(column) ?? {};
    const title = typeof column.title === 'function' ? column.title({}) : column.title;
    const style = { textAlign: column.align, ...own.style };
    if (!column.sorter)
      return (
        <th key={column.key ?? index} {...own} style={style}>
          {title}
        </th>
      );
    const order = column.sortOrder ?? null;
    return (
      <th
        key={column.key ?? index}
        {...own}
        style={style}
        className="dtable-sortable"
        tabIndex={0}
        aria-sort={order ? ARIA_SORT[order] : undefined}
        onClick={() => sortBy(column)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') sortBy(column);
        }}
      >
        <div className="dtable-sorters">
          <span className="dtable-title">{title}</span>
          <span className="dtable-sorter" aria-hidden>
            <CaretUpOutlined className={order === 'ascend' ? 'dtable-sorter-on' : undefined} />
            <CaretDownOutlined className={order === 'descend' ? 'dtable-sorter-on' : undefined} />
          </span>
        </div>
      </th>
    );
  };

  const cell = (row: T, index: number, column: Column<T>, at: number) => {
    const own = (column.onCell?.(row, index) ?? {}) as HTMLAttributes<HTMLElement>;
    const value = valueAt(row, column);
    const content = (column.render ? column.render(value, row, index) : value) as ReactNode;
    const title =
      column.ellipsis && (typeof content === 'string' || typeof content === 'number')
        ? String(content)
        : undefined;
    return (
      <td
        key={column.key ?? at}
        title={title}
        {...own}
        className={
          [column.ellipsis && 'dtable-ellipsis', column === sorted && 'dtable-sorted']
            .filter(Boolean)
            .join(' ') || undefined
        }
        style={{ textAlign: column.align, ...own.style }}
      >
        {content}
      </td>
    );
  };

  return (
    <div className="dtable-wrap">
      <Spin spinning={Boolean(loading)}>
        <div className={`dtable dtable-${size}`}>
          <table style={{ tableLayout: fixed ? 'fixed' : 'auto' }}>
            {fixed && (
              <colgroup>
                {leaves.map((c, i) => (
                  <col key={c.key ?? i} style={{ width: c.width }} />
                ))}
              </colgroup>
            )}
            <thead>
              <tr>{leaves.map(header)}</tr>
            </thead>
            <tbody>
              {dataSource.length === 0 ? (
                <tr className="dtable-empty">
                  <td colSpan={leaves.length}>{emptyText}</td>
                </tr>
              ) : (
                dataSource.map((row, i) => (
                  <tr key={keyOf(row, i)} data-row-key={keyOf(row, i)} className={rowClass(row, i)}>
                    {leaves.map((c, at) => cell(row, i, c, at))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        {pagination && Boolean(pagination.total) && (
          <PagerStandIn
            pagination={pagination}
            small={size !== 'large'}
            onPage={(current, pageSize) => {
              pagination.onChange?.(current, pageSize);
              change(
                { current, pageSize },
                sorterOf(sorted, sorted?.sortOrder ?? null),
                'paginate',
              );
            }}
          />
        )}
      </Spin>
    </div>
  );
}
