import { lazy } from 'react';

export const AppDownloadPage = lazy(() => import('./AppDownloadPage'));
export const FirmwareLogPage = lazy(() => import('./FirmwareLogPage'));
export const SystemUpdatePage = lazy(() => import('./SystemUpdatePage'));
