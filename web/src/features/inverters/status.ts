/** Device statuses (docs/overview.md) with their wire codes (domain::plant::Status). */
export const DEVICE_STATUSES = [
  { value: 1, key: 'normal', color: '#22c55e' },
  { value: 0, key: 'offline', color: '#94a3b8' },
  { value: 2, key: 'warning', color: '#f59e0b' },
  { value: 3, key: 'fault', color: '#ef4444' },
  { value: 4, key: 'upgrading', color: '#3b82f6' },
] as const;

export type StatusKey = (typeof DEVICE_STATUSES)[number]['key'];

/** The status of a code; unknown codes read as offline. */
export function deviceStatus(code: number | null | undefined) {
  return DEVICE_STATUSES.find((s) => s.value === code) ?? DEVICE_STATUSES[1];
}
