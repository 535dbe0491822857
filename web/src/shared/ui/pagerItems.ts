/** A gap between pages in a pager's list. */
export const GAP = 0;

/**
 * The pages a pager offers, as antd's does: all of them up to seven, else the first, the last
 * and two either side of the current one (five at either end), with gaps (GAP) between.
 */
export function pagerItems(current: number, pages: number): number[] {
  if (pages <= 7) return Array.from({ length: pages }, (_, i) => i + 1);
  let left = Math.max(1, current - 2);
  let right = Math.min(pages, current + 2);
  if (current - 1 <= 2) right = 5;
  if (pages - current <= 2) left = pages - 4;
  const items = Array.from({ length: right - left + 1 }, (_, i) => left + i);
  if (left > 1) items.unshift(...(left > 2 ? [1, GAP] : [1]));
  if (right < pages) items.push(...(right < pages - 1 ? [GAP, pages] : [pages]));
  return items;
}
