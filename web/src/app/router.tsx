import { Suspense, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import {
  AgreementEnPage,
  AgreementPage,
  ForgetPage,
  LoginPage,
  RegisterPage,
  ResetSuccessPage,
} from '@/features/auth';
import { AppDownloadPage, FirmwareLogPage } from '@/features/system';
import { RequireSignIn, SignedOutOnly } from './guards';
import { LazyOutlet } from './layout/LazyOutlet';
import { MainLayout } from './layout/MainLayout';
import { RouteGate } from './layout/RouteGate';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { ForbiddenPage, NotFound } from './pages/lazy';
import { ROUTES } from './registry';
import { RouteError } from './pages/RouteError';

const page = (Page: ComponentType) => <Page />;

export const routes: RouteObject[] = [
  {
    element: <LazyOutlet />,
    errorElement: <RouteError />,
    children: [
      {
        element: <SignedOutOnly />,
        children: [
          { path: '/login', element: page(LoginPage) },
          // the branded alias of the same login screen
          { path: '/brand/login', element: page(LoginPage) },
        ],
      },
      { path: '/reg', element: page(RegisterPage) },
      { path: '/forget', element: page(ForgetPage) },
      { path: '/resetSuccessful', element: page(ResetSuccessPage) },
      { path: '/agreement', element: page(AgreementPage) },
      { path: '/agreementen', element: page(AgreementEnPage) },
      { path: '/register/userAgreement', element: page(AgreementPage) },
      { path: '/app/download', element: page(AppDownloadPage) },
      { path: '/firmwareLogging', element: page(FirmwareLogPage) },
      { path: '/403', element: <ForbiddenPage /> },
      {
        element: <RequireSignIn />,
        children: [
          {
            element: <MainLayout />,
            children: [
              ...ROUTES.map((entry) => ({
                path: entry.path,
                element: <RouteGate entry={entry} />,
              })),
              {
                path: '*',
                element: (
                  <Suspense fallback={<FullPageSpin />}>
                    <NotFound />
                  </Suspense>
                ),
              },
            ],
          },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
