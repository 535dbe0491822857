import { lazy, Suspense, type ComponentType } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
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
import { RouteErrorBoundary } from './layout/RouteErrorBoundary';
import { RouteGate } from './layout/RouteGate';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { MoreTexts } from '@/shared/i18n/MoreTexts';
import { isSignedIn, SIGNING_IN_EVENT } from '@/shared/session';
import { ForbiddenPage, NotFound } from './pages/lazy';
import { ROUTES } from './registry';

// screens besides the login page wait for the English texts beyond the first screens' too
const page = (Page: ComponentType) => (
  <MoreTexts>
    <Page />
  </MoreTexts>
);

/**
 * The signed-in frame (side menu, top bar) is a chunk of its own: the login page does not load
 * it. Someone signed in needs it at once, so its download starts with the app's, not after;
 * someone signing in gets it while the sign-in runs.
 */
const loadLayout = () => import('./layout/MainLayout').then((m) => ({ default: m.MainLayout }));
if (isSignedIn()) void loadLayout();
else window.addEventListener(SIGNING_IN_EVENT, () => void loadLayout(), { once: true });
const MainLayout = lazy(loadLayout);

const routes: RouteObject[] = [
  {
    element: (
      <RouteErrorBoundary>
        <LazyOutlet />
      </RouteErrorBoundary>
    ),
    children: [
      {
        element: <SignedOutOnly />,
        children: [
          { path: '/login', element: <LoginPage /> },
          // the branded alias of the same login screen
          { path: '/brand/login', element: <LoginPage /> },
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
      { path: '/403', element: page(ForbiddenPage) },
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
                element: <Suspense fallback={<FullPageSpin />}>{page(NotFound)}</Suspense>,
              },
            ],
          },
        ],
      },
    ],
  },
];

/** The app's screens, under App.tsx's BrowserRouter (declarative: no loaders or actions). */
export function AppRoutes() {
  return useRoutes(routes);
}
