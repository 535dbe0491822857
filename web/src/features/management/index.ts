import { lazy } from 'react';

export const ManagementRedirect = lazy(() => import('./ManagementRedirect'));
export const SystemGatewaysPage = lazy(() => import('./SystemGatewaysPage'));
