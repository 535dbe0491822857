import type { TableColumnType } from 'antd';
import { RowActionButtons, type RowAction } from './RowActionButtons';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };

/**
 * A list's last column: each row's actions (see `RowActionButtons`), titled on a wide screen and
 * a bare "more" menu at the right edge on a phone.
 */
export function actionsColumn<T>(
  label: string,
  compact: boolean,
  actionsOf: (row: T) => readonly RowAction[],
): TableColumnType<T> {
  return {
    key: 'actions',
    title: compact ? '' : label,
    align: compact ? 'right' : 'left',
    onHeaderCell: () => nowrap,
    onCell: () => nowrap,
    render: (_, row) => (
      <RowActionButtons compact={compact} menuLabel={label} actions={actionsOf(row)} />
    ),
  };
}
