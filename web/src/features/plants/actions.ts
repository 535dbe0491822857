import type { PlantRow } from './api';

/** Which columns fit: a phone keeps name, power and a menu; a wide screen adds the address. */
export type ListWidth = 'phone' | 'medium' | 'desktop' | 'wide';

/** The plant's overview (monitoring), where a click on its name leads for every user. */
export const overviewPath = (row: { id: number; type: number }) =>
  `/plants/overview/${row.id}/${row.type}`;

export type RowAction = 'details' | 'edit' | 'share' | 'transfer' | 'delete' | 'leave';

const can = (row: { plantPermission?: string[] }, key: string) =>
  row.plantPermission?.includes(key) ?? false;

/** The actions a row offers, from its `plantPermission` (the name itself opens the overview). */
export function rowActions(row: PlantRow): RowAction[] {
  const actions: RowAction[] = [];
  if (can(row, 'station.edit')) actions.push('edit');
  else actions.push('details');
  if (!row.share && can(row, 'station.share')) actions.push('share');
  if (can(row, 'station.transfer')) actions.push('transfer');
  if (can(row, 'station.delete')) actions.push('delete');
  if (row.share && can(row, 'station.share.cancle')) actions.push('leave');
  return actions;
}
