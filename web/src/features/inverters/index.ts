import { lazy } from 'react';

export const InverterListPage = lazy(() => import('./InverterListPage'));
export const InverterDetailPage = lazy(() => import('./InverterDetailPage'));
export { inverterTypeKey, inverterTypeLabelKey, isHybrid, type InverterTypeKey } from './typeLabel';
export const DeviceRedirect = lazy(() => import('./DeviceRedirect'));
