import { lazy } from 'react';

export const FirmwareRedirect = lazy(() => import('./FirmwareRedirect'));
export const InverterFirmwarePage = lazy(() => import('./InverterFirmwarePage'));
export const GatewayFirmwarePage = lazy(() => import('./GatewayFirmwarePage'));
