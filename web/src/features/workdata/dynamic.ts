import type { Dayjs } from 'dayjs';

/** The server reads at most 31 plant-local days of a device's reports at once. */
export const MAX_DYNAMIC_DAYS = 31;

/** Whether a range stays within what the server reads at once. */
export function withinDynamicRange([from, to]: [Dayjs, Dayjs]): boolean {
  return to.startOf('day').diff(from.startOf('day'), 'day') < MAX_DYNAMIC_DAYS;
}

/** The chosen value keys of the URL's `column` (comma separated, blanks dropped). */
export function splitColumns(column: string): string[] {
  return column
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
}
