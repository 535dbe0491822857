import { lazy } from 'react';

export const DebugToolboxPage = lazy(() => import('./DebugToolboxPage'));
export const DebugLogPage = lazy(() => import('./DebugLogPage'));
