/**
 * The colours of every status the screens show, in one place: plant and device statuses
 * (gateways' too), event severities, and the outcomes of commands, debug exchanges and
 * upgrades. Hex colours read in both themes.
 */

/** Plant and device statuses (docs/overview.md) with their wire codes (domain::plant::Status). */
export const STATUSES = [
  { value: 1, key: 'normal', color: '#22c55e' },
  { value: 0, key: 'offline', color: '#94a3b8' },
  { value: 2, key: 'warning', color: '#f59e0b' },
  { value: 3, key: 'fault', color: '#ef4444' },
  { value: 4, key: 'upgrading', color: '#3b82f6' },
] as const;

export type StatusKey = (typeof STATUSES)[number]['key'];
export type StatusEntry = (typeof STATUSES)[number];

/** Wire codes by name. */
export const StatusCode = {
  offline: 0,
  normal: 1,
  warning: 2,
  fault: 3,
  upgrading: 4,
} as const satisfies Record<StatusKey, number>;

const OFFLINE: StatusEntry = STATUSES[1];

/**
 * What a device badge shows beside the statuses: an inverter that is online, has nothing open
 * and reports itself switched off. Not a wire status (the server's stays Normal, as the API's
 * clients expect): the screens derive it from the inverter's power state.
 */
export const SWITCHED_OFF = { key: 'off', color: '#64748b' } as const;

/** A status as a badge shows it: one of the statuses, or switched off. */
export type ShownState = Pick<StatusEntry, 'key' | 'color'> | typeof SWITCHED_OFF;

/** The status of a code; unknown codes read as offline. */
export function statusOf(code: number | null | undefined): StatusEntry {
  return STATUSES.find((s) => s.value === code) ?? OFFLINE;
}

/** Event severities: the warning and fault colours of the statuses; notices blue. */
const SEVERITY_COLORS = {
  info: '#3b82f6',
  warning: '#f59e0b',
  fault: '#ef4444',
} as const;

/** The colour of a severity the server may name (an unknown one reads as a warning). */
export function severityColor(severity: string): string {
  return SEVERITY_COLORS[severity as keyof typeof SEVERITY_COLORS] ?? SEVERITY_COLORS.warning;
}

/** An antd Tag / Badge preset. */
export type OutcomeColor = 'success' | 'error' | 'default' | 'processing' | 'warning';

/**
 * The colour of what became of a command, a debug exchange, an audited action, an upgrade or a
 * gateway of a batch: done, failed (a timeout or a refusal too), cancelled, waiting its turn
 * (an upgrade queued behind its gateway's running one), or still running.
 */
export function outcomeColor(status: string): OutcomeColor {
  switch (status) {
    case 'succeeded':
    case 'successful':
    case 'ok':
      return 'success';
    case 'failed':
    case 'timed_out':
    case 'refused':
      return 'error';
    case 'cancelled':
      return 'default';
    case 'queued':
      return 'warning';
    default:
      return 'processing';
  }
}

/** An event occurrence: open ones pulse, closed ones are grey. */
export function eventStatusBadge(status: string): 'processing' | 'default' {
  return status === 'open' ? 'processing' : 'default';
}
