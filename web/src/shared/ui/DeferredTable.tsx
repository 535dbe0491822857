import type { TableProps } from 'antd';
import type { ComponentType } from 'react';
import { tableCode } from './deferredCode';
import { usePart } from './deferredPart';
import { TableStandIn } from './TableStandIn';
import './standIns.css';

type Props<T> = TableProps<T> & { 'data-testid'?: string };

/**
 * antd's Table for a list on a first screen (issue 32: its code, with its pagination, filter
 * tree and virtual list, is 44 kB gzip). The screen shows without it: until the code is in (its
 * download starts when the list first shows) a plain table with the same columns, cells, empty
 * text and a pager draws the rows; a sort or page chosen there goes to `onChange` as the real
 * one sends it. The box with `data-testid` stays when the real table takes over, so what holds
 * it keeps holding the list.
 */
export function DeferredTable<T extends object>({ 'data-testid': testId, ...props }: Props<T>) {
  const Table = usePart(tableCode) as ComponentType<TableProps<T>> | null;
  return (
    <div data-testid={testId}>{Table ? <Table {...props} /> : <TableStandIn {...props} />}</div>
  );
}
