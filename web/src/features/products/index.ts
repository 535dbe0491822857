import { lazy } from 'react';

export const ProductsPage = lazy(() => import('./ProductsPage'));
