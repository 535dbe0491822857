import { lazy } from 'react';

export const AuditLogPage = lazy(() => import('./AuditLogPage'));
