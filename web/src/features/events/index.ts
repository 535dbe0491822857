import { lazy } from 'react';

export const EventListPage = lazy(() => import('./EventListPage'));
export { MessageBell } from './MessageBell';
