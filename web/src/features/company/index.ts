import { lazy } from 'react';

export const CompanyInfoPage = lazy(() => import('./CompanyInfoPage'));
export const StaffPage = lazy(() => import('./StaffPage'));
export const RolesPage = lazy(() => import('./RolesPage'));
export const AgentsPage = lazy(() => import('./AgentsPage'));
export const EnterpriseRedirect = lazy(() => import('./EnterpriseRedirect'));
