import { lazy } from 'react';

// Screens of the shell's own routes that load when they are shown.

/** The 403 and 404 pages (antd's Result, with its illustrations). */
export const ForbiddenPage = lazy(() => import('./Forbidden'));
export const NotFound = lazy(() => import('./NotFound'));

// The events page straight from its module, not through '@/features/events': that index also
// exports the top bar's bell, which the shell loads on its own (layout/TopBar.tsx) beside the
// first screen's code.
export const EventListPage = lazy(() => import('@/features/events/EventListPage'));

// The alarm engine's screens: their code and English texts load when they are opened.
export const AlarmsPage = lazy(() => import('@/features/alarms/AlarmsPage'));
export const AlarmRulesPage = lazy(() => import('@/features/alarms/AlarmRulesPage'));
