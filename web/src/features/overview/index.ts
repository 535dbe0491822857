import { lazy } from 'react';

export const PlantOverviewPage = lazy(() => import('./OverviewPage'));
