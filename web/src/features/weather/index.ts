import { lazy } from 'react';

export const WeatherListPage = lazy(() => import('./WeatherListPage'));
export const WeatherDetailPage = lazy(() => import('./WeatherDetailPage'));
