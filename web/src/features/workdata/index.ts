import { lazy } from 'react';

export const WorkdataRedirect = lazy(() => import('./WorkdataRedirect'));
export const WorkdataListPage = lazy(() => import('./WorkdataListPage'));
export const ReportPage = lazy(() => import('./ReportPage'));
