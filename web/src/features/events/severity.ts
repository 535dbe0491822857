/** Event severity colours (the warning and fault colours of the device statuses). */
export const SEVERITY_COLORS: Record<string, string> = {
  warning: '#f59e0b',
  fault: '#ef4444',
};
