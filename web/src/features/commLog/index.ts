import { lazy } from 'react';

export const CommLogPage = lazy(() => import('./CommLogPage'));
export const LogRedirect = lazy(() => import('./LogRedirect'));
