import type { TableProps } from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { formatCompact, formatNumber, MISSING } from '@/shared/format/number';
import type { PlantQuery, PlantRow } from './api';
import { plantState } from '@/shared/devices/live';
import { StatusDot } from '@/shared/ui/StatusDot';
import type { ListWidth, RowAction } from './actions';
import { NameCell } from './NameCell';
import { RowActions } from './RowActions';

const sortOrder = (query: PlantQuery, field: PlantQuery['sort']) =>
  query.sort === field ? (query.order === 'asc' ? 'ascend' : 'descend') : null;

// figures and dates never wrap; their headers neither (no "Capacity (kWp)" letter by letter)
const nowrap = { style: { whiteSpace: 'nowrap' as const } };

/**
 * The list's columns for the screen width. No horizontal scrolling and no fixed column: the
 * name column takes what the others leave, the others keep to their content.
 */
export function plantColumns({
  t,
  query,
  width,
  onAction,
}: {
  t: TFunction;
  query: PlantQuery;
  width: ListWidth;
  onAction: (action: RowAction, row: PlantRow) => void;
}): NonNullable<TableProps<PlantRow>['columns']> {
  const phone = width === 'phone';
  const atLeastDesktop = width === 'desktop' || width === 'wide';
  const columns: NonNullable<TableProps<PlantRow>['columns']> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('plants.column.name'),
      sorter: true,
      sortOrder: sortOrder(query, 'name'),
      onHeaderCell: () => nowrap,
      render: (_, row) => <NameCell row={row} width={width} t={t} />,
    },
  ];
  if (!phone) {
    columns.push(
      {
        key: 'status',
        dataIndex: 'status',
        title: t('plants.column.status'),
        onHeaderCell: () => nowrap,
        onCell: () => nowrap,
        render: (_, row) => {
          const s = plantState(row.status, row.stale, row.switchedOff);
          return (
            <StatusDot
              color={s.color}
              text={t(`plants.status.${s.key}`)}
              data-testid="plant-status"
              data-state={s.key}
            />
          );
        },
      },
      {
        key: 'totalPower',
        dataIndex: 'totalPower',
        title: t('plants.column.capacity'),
        align: 'right',
        sorter: true,
        sortOrder: sortOrder(query, 'totalPower'),
        onHeaderCell: () => nowrap,
        onCell: () => nowrap,
        render: (v: number | null) => formatNumber(v),
      },
    );
  }
  columns.push({
    key: 'pac',
    dataIndex: 'pac',
    title: t('plants.column.power'),
    align: 'right',
    onHeaderCell: () => nowrap,
    onCell: () => nowrap,
    render: (v: number | null) => <span data-testid="plant-pac">{formatCompact(v, 'W')}</span>,
  });
  if (!phone) {
    columns.push({
      key: 'etoday',
      dataIndex: 'etoday',
      title: t('plants.column.today'),
      align: 'right',
      onHeaderCell: () => nowrap,
      onCell: () => nowrap,
      render: (v: number | null) => (
        <span data-testid="plant-etoday">{formatCompact(v === null ? v : v * 1000, 'Wh')}</span>
      ),
    });
  }
  if (atLeastDesktop) {
    columns.push({
      key: 'etotal',
      dataIndex: 'etotal',
      title: t('plants.column.total'),
      align: 'right',
      onHeaderCell: () => nowrap,
      onCell: () => nowrap,
      render: (v: number | null) => formatCompact(v === null ? v : v * 1000, 'Wh'),
    });
  }
  if (width === 'wide') {
    columns.push({
      key: 'address',
      dataIndex: 'address',
      title: t('plants.column.address'),
      ellipsis: true,
      width: 220,
      onHeaderCell: () => nowrap,
      render: (v: string | null) => v || MISSING,
    });
  }
  if (atLeastDesktop) {
    columns.push({
      key: 'createAt',
      dataIndex: 'createAt',
      title: t('plants.column.created'),
      sorter: true,
      sortOrder: sortOrder(query, 'createAt'),
      onHeaderCell: () => nowrap,
      onCell: () => nowrap,
      render: (v: string | null) =>
        v ? (
          <span title={dayjs(v).format('YYYY-MM-DD HH:mm')}>{dayjs(v).format('YYYY-MM-DD')}</span>
        ) : (
          MISSING
        ),
    });
  }
  columns.push({
    key: 'actions',
    title: phone ? '' : t('plants.column.actions'),
    align: phone ? 'right' : 'left',
    onHeaderCell: () => nowrap,
    onCell: () => nowrap,
    render: (_, row) => (
      <RowActions row={row} compact={phone} onAction={(action) => onAction(action, row)} />
    ),
  });
  return columns;
}
