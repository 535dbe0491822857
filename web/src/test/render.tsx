import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { App as AntdApp, ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { antdLocale, changeLanguage, currentLanguage, type Language } from '@/shared/i18n';
// The English texts a feature adds when its screens load, for tests that render its parts alone,
// and those beyond the first screens' (shared/i18n/MoreTexts.tsx).
import '@/shared/i18n/more';
import '@/features/account/texts';
import '@/features/alarms/texts';
import '@/features/audit/texts';
import '@/features/batteries/health/texts';
import '@/features/energyHub/texts';
import '@/features/fleet/texts';
import '@/features/overview/texts';
import '@/features/system/texts';
import { collectPermissions, permissionQuery, type PermissionInput } from '@/shared/permissions';
import { tokenStore } from '@/shared/session';
import { userQuery, type CurrentUser } from '@/shared/user';
import { HttpUiBridge, LocationProbe } from './parts';

export interface ScreenOptions {
  /** The URL the screen opens at (default `/`). */
  route?: string;
  /** The route pattern the screen is mounted under, for its params (`/plant/:id`). */
  path?: string;
  /** Other routes the screen may navigate to, by pattern. */
  routes?: Record<string, ReactNode>;
  /** The interface language (default English). */
  language?: Language;
  /** The signed-in user's permission tree, as GET /api/v1/permission answers it (none by default). */
  permissions?: PermissionInput | readonly PermissionInput[];
  /** The signed-in user, as GET /api/v1/user answers it. */
  user?: CurrentUser;
  /** Stored tokens, as after a sign-in. */
  signedIn?: boolean;
  /** A query client the test prepared (seeded data); a fresh one by default. */
  client?: QueryClient;
}

export interface Screen extends RenderResult {
  client: QueryClient;
  /** Where the router is now: path and query. */
  location(): string;
}

/** A query client as the app's, without retries: a failed request fails at once. */
export const testQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

/**
 * Renders a screen with what the app gives every screen (App.tsx): a query client, a router
 * at `route`, antd's App and locale, the chosen language, and the session if asked for.
 */
export async function renderScreen(ui: ReactNode, options: ScreenOptions = {}): Promise<Screen> {
  const { route = '/', language = 'en' } = options;
  const path = options.path ?? new URL(route, 'http://portal.test').pathname;
  if (currentLanguage() !== language) await changeLanguage(language);
  const client = options.client ?? testQueryClient();
  client.setQueryData(permissionQuery(language).queryKey, collectPermissions(options.permissions));
  if (options.user) client.setQueryData(userQuery.queryKey, options.user);
  if (options.signedIn) {
    tokenStore.set({ access_token: 'access', refresh_token: 'refresh' });
    signedIn = true;
  }
  const location = { current: route };
  const result = render(
    <QueryClientProvider client={client}>
      <ConfigProvider locale={antdLocale(language)}>
        <AntdApp>
          <HttpUiBridge />
          <MemoryRouter initialEntries={[route]}>
            <LocationProbe
              onChange={(at) => {
                location.current = at;
              }}
            />
            <Routes>
              <Route path={path} element={ui} />
              {Object.entries(options.routes ?? {}).map(([pattern, element]) => (
                <Route key={pattern} path={pattern} element={element} />
              ))}
            </Routes>
          </MemoryRouter>
        </AntdApp>
      </ConfigProvider>
    </QueryClientProvider>,
  );
  return { ...result, client, location: () => location.current };
}

let signedIn = false;

/** After each test (src/test/setup.ts): signed out again, in English. */
export async function resetScreen(): Promise<void> {
  if (signedIn) tokenStore.clear();
  signedIn = false;
  if (currentLanguage() !== 'en') await changeLanguage('en');
}

export interface HookScreen<T> extends Screen {
  /** What the hook returned at the last render. */
  result: { current: T };
}

/**
 * Runs a hook inside what renderScreen gives a screen, mounted on every route (`*` unless
 * `path` says otherwise) so that navigating keeps it alive, as the app's kept-alive screens.
 */
export async function renderScreenHook<T>(
  hook: () => T,
  options: ScreenOptions = {},
): Promise<HookScreen<T>> {
  const result = { current: undefined as T };
  function Probe() {
    result.current = hook();
    return null;
  }
  const screen = await renderScreen(<Probe />, { path: '*', ...options });
  return { ...screen, result };
}
