import { lazy } from 'react';

export const MeterListPage = lazy(() => import('./MeterListPage'));
export const MeterDetailPage = lazy(() => import('./MeterDetailPage'));
