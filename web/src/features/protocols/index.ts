import { lazy } from 'react';

export const ProtocolsPage = lazy(() => import('./ProtocolsPage'));
export const ProtocolEditorPage = lazy(() => import('./ProtocolEditorPage'));
