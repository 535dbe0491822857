import { lazy } from 'react';

export const ManualsPage = lazy(() => import('./ManualsPage'));
