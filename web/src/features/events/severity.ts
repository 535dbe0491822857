import type { Severity } from './api';

/** The severities, most serious first (the filter's order). */
export const SEVERITIES: readonly Severity[] = ['fault', 'warning', 'info'];
