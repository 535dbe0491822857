import { Badge, type TableColumnType } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { MISSING } from '@/shared/format/number';
import type { DeviceRowBase } from './api';
import { formatPlantTime } from '@/shared/format/time';
import { shownStatus } from './live';
import type { DeviceKind } from './kind';
import { statusOf } from '@/shared/ui/status';

type Column<Row> = TableColumnType<Row>;

/**
 * The columns every device list has (SN, name, status, plant, gateway … last update) around
 * the device's own value columns.
 */
export function deviceColumns<Row extends DeviceRowBase>(
  kind: DeviceKind,
  t: TFunction,
  values: Column<Row>[],
  options: { snWidth: number; alias?: (row: Row) => ReactNode },
): Column<Row>[] {
  const alias = options.alias;
  return [
    {
      key: 'sn',
      title: t(`${kind.ns}.column.sn`),
      fixed: 'left',
      width: options.snWidth,
      render: (_, row) => (
        <Link to={`${kind.route}/${encodeURIComponent(row.sn)}`} data-testid={`${kind.testId}-sn`}>
          {row.sn}
        </Link>
      ),
    },
    alias
      ? {
          key: 'alias',
          title: t(`${kind.ns}.column.alias`),
          ellipsis: true,
          render: (_, row) => alias(row),
        }
      : {
          key: 'alias',
          dataIndex: 'alias',
          title: t(`${kind.ns}.column.alias`),
          ellipsis: true,
          render: (v: string) => v || MISSING,
        },
    {
      key: 'status',
      dataIndex: 'status',
      title: t(`${kind.ns}.column.status`),
      width: 110,
      render: (v: number, row) => {
        const s = statusOf(shownStatus(v, row.stale));
        return <Badge color={s.color} text={t(`${kind.ns}.status.${s.key}`)} />;
      },
    },
    {
      key: 'plant',
      title: t(`${kind.ns}.column.plant`),
      ellipsis: true,
      render: (_, row) => row.plant?.name ?? MISSING,
    },
    {
      key: 'gsn',
      dataIndex: 'gsn',
      title: t(`${kind.ns}.column.gateway`),
      width: 140,
      render: (v: string | null) => v ?? MISSING,
    },
    ...values,
    {
      key: 'updateAt',
      dataIndex: 'updateAt',
      title: t(`${kind.ns}.column.updateAt`),
      width: 240,
      // In the plant's zone, named (one rule for device times).
      render: (v: string, row) => formatPlantTime(v, row.timezone),
    },
  ];
}

/** A right-aligned value column titled `${ns}.column.${title ?? key}`. */
export function valueColumn<Row>(
  kind: DeviceKind,
  t: TFunction,
  key: keyof Row & string,
  width: number,
  render?: (v: never) => ReactNode,
  title: string = key,
): Column<Row> {
  return {
    key,
    dataIndex: key,
    title: t(`${kind.ns}.column.${title}`),
    align: 'right',
    width,
    ...(render && { render: render as (v: unknown) => ReactNode }),
  };
}
