import { lazy } from 'react';

export const HomePage = lazy(() => import('./HomePage'));
