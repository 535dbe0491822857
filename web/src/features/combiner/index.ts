import { lazy } from 'react';

export const CombinerListPage = lazy(() => import('./CombinerListPage'));
export const CombinerDetailPage = lazy(() => import('./CombinerDetailPage'));
