import { lazy } from 'react';

export const PlantListPage = lazy(() => import('./PlantListPage'));
export const PlantWizardPage = lazy(() => import('./PlantWizardPage'));
export const PlantEditPage = lazy(() => import('./PlantEditPage'));
