import { lazy } from 'react';

export const GatewayListPage = lazy(() => import('./GatewayListPage'));
export const GatewayDetailPage = lazy(() => import('./GatewayDetailPage'));
