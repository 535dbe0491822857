import { lazy } from 'react';

export const SharesPage = lazy(() => import('./SharesPage'));
