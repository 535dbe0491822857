import { Tooltip, type TableColumnType } from 'antd';
import type { ReactNode } from 'react';

/** The one column of a list on a phone: every row as its card. */
export function cardColumn<T>(title: string, card: (row: T) => ReactNode): TableColumnType<T> {
  return { key: 'card', title, render: (_, row) => card(row) };
}

/**
 * A column cut to its width with an ellipsis, the whole text in a tooltip: a long name or
 * address never widens the table nor wraps the row.
 */
export function clipped(text: ReactNode, full: string | null | undefined = null): ReactNode {
  const title = full ?? (typeof text === 'string' ? text : null);
  return title ? (
    <Tooltip placement="topLeft" title={title}>
      <span>{text}</span>
    </Tooltip>
  ) : (
    text
  );
}

/** What a clipped column spreads in: an ellipsis without the browser's own title. */
export const CLIPPED = { ellipsis: { showTitle: false } } as const;
