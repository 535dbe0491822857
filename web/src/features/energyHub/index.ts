import { lazy } from 'react';

export const EnergyHubRedirect = lazy(() => import('./EnergyHubRedirect'));
export const EnrollmentPlanPage = lazy(() => import('./EnrollmentPlanPage'));
export const EnergyHubEventPage = lazy(() => import('./EventPage'));
