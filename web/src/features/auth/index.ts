import { lazy } from 'react';

export const LoginPage = lazy(() => import('./LoginPage'));
export const RegisterPage = lazy(() => import('./RegisterPage'));
export const ForgetPage = lazy(() => import('./ForgetPage'));
export const ResetSuccessPage = lazy(() => import('./ResetSuccessPage'));
export const AgreementPage = lazy(() => import('./AgreementPage'));
export const AgreementEnPage = lazy(() =>
  import('./AgreementPage').then((m) => ({ default: m.AgreementEnPage })),
);
