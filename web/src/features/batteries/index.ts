import { lazy } from 'react';

export const BatteryListPage = lazy(() => import('./BatteryListPage'));
export const BatteryDetailPage = lazy(() => import('./BatteryDetailPage'));
