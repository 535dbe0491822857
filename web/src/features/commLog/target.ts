/** The Logging menu's screens in menu order, with the route key each needs. */
const LOGS: readonly (readonly [path: string, permission: string])[] = [
  ['/log/uphold', 'logger.upgrade.record'],
  ['/log/communication', 'logger.communication'],
  ['/log/debug', 'logger.management'],
];

/** Where /log goes: the first log the user may read (the maintenance log when allowed). */
export function logTarget(routes: ReadonlySet<string>): string {
  return LOGS.find(([, key]) => routes.has(key))?.[0] ?? '/';
}
