import { lazy } from 'react';

export const FleetDashboardPage = lazy(() => import('./FleetDashboardPage'));
