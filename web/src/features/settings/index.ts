import { lazy } from 'react';

export const SettingsPage = lazy(() => import('./SettingsPage'));
export { PowerButtons } from './PowerButtons';
