import type { Severity } from './api';

/** Event severity colours (the warning and fault colours of the device statuses; notices blue). */
export const SEVERITY_COLORS: Record<Severity, string> = {
  info: '#3b82f6',
  warning: '#f59e0b',
  fault: '#ef4444',
};

/** The severities, most serious first (the filter's order). */
export const SEVERITIES: readonly Severity[] = ['fault', 'warning', 'info'];

/** The colour of a severity the server may name (an unknown one reads as a warning). */
export function severityColor(severity: string): string {
  return SEVERITY_COLORS[severity as Severity] ?? SEVERITY_COLORS.warning;
}
