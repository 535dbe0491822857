import { lazy } from 'react';

export const PreferencesPage = lazy(() => import('./PreferencesPage'));
