import { lazy } from 'react';

export const CompaniesPage = lazy(() => import('./CompaniesPage'));
