import { lazy } from 'react';

export const CustomerListPage = lazy(() => import('./CustomerListPage'));
export const CustomerTypesPage = lazy(() => import('./CustomerTypesPage'));
export const CustomerRedirect = lazy(() => import('./CustomerRedirect'));
