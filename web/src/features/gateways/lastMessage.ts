/** How long ago something happened, in the largest whole unit (for "12 s ago"). */
export interface Age {
  unit: 'now' | 'seconds' | 'minutes' | 'hours' | 'days';
  count: number;
}

/** The age of `at` (an ISO time) at `now` (ms); null without a time or for a bad one. */
export function ageOf(at: string | null | undefined, now: number): Age | null {
  if (!at) return null;
  const then = Date.parse(at);
  if (Number.isNaN(then)) return null;
  const s = Math.max(0, Math.floor((now - then) / 1000));
  if (s < 2) return { unit: 'now', count: 0 };
  if (s < 60) return { unit: 'seconds', count: s };
  if (s < 3600) return { unit: 'minutes', count: Math.floor(s / 60) };
  if (s < 86_400) return { unit: 'hours', count: Math.floor(s / 3600) };
  return { unit: 'days', count: Math.floor(s / 86_400) };
}
