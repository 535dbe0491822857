import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider, theme } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { useServerConfig } from '@/shared/config';
import { ErrorCode, setHttpUi } from '@/shared/http';
import { antdLocale, currentLanguage } from '@/shared/i18n';
import { isSignedIn, setSignInNotice } from '@/shared/session';
import { safeColor, THEME_META, ThemeKindContext, themeKindFor } from '@/shared/theme';
import { installKeyFilter } from '@/shared/ui/keyFilter';
import { useReducedMotion } from '@/shared/ui/useNarrow';
import { userQuery } from '@/shared/user';
import { queryClient } from './queryClient';
import { AppRoutes } from './router';
import { antdTheme } from './theme';

/** Gives the http client antd's toasts and dialogs; installs the global key filter. */
function Bridges() {
  const { t } = useTranslation();
  const { message, modal } = AntdApp.useApp();

  useEffect(() => {
    setHttpUi({
      toast: (text, code) =>
        code === ErrorCode.FirmwareCurrent ? message.warning(text) : message.error(text),
      networkError: () =>
        new Promise<boolean>((resolve) => {
          modal.confirm({
            title: t('network.title'),
            content: t('network.text'),
            okText: t('common.confirm'),
            cancelText: t('common.cancel'),
            onOk: () => resolve(true),
            onCancel: () => resolve(false),
          });
        }),
      signedOut: (reason) => {
        queryClient.clear();
        // the /login page this reloads to deletes the service worker's copies of the user's
        // data and ends this browser's push subscription (shared/pwa/device.ts)
        if (reason === 'expired') setSignInNotice('login.sessionExpired');
        window.location.assign('/login');
      },
    });
  }, [message, modal, t]);

  useEffect(
    () =>
      installKeyFilter(document, (blocked) => {
        message.open({
          key: 'key-filter',
          type: 'warning',
          content: t(blocked === 'space' ? 'validation.noSpaces' : 'validation.noSpecial'),
        });
      }),
    [message, t],
  );
  return null;
}

/** Sets the page title and favicon of the theme. */
function useDocumentIdentity(titleKey: string, favicon: string) {
  const { t } = useTranslation();
  const title = t(titleKey);
  useEffect(() => {
    document.title = title;
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    link.type = 'image/svg+xml';
    link.href = favicon;
  }, [title, favicon]);
}

function Themed() {
  const { i18n } = useTranslation();
  const { config } = useServerConfig();
  const kind = themeKindFor(window.location.hostname, config.brandedHosts);
  // the company colour once someone is signed in; the server default before
  const { data: user } = useQuery({ ...userQuery, enabled: isSignedIn() });
  const primary = safeColor(
    user?.company?.themeColor,
    safeColor(config.defaultThemeColor, '#00cc00'),
  );
  const still = useReducedMotion();
  const themeConfig = useMemo(() => antdTheme(kind, primary, !still), [kind, primary, still]);
  useDocumentIdentity(THEME_META[kind].titleKey, THEME_META[kind].favicon);

  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = kind;
    root.lang = i18n.language;
    // a few design tokens for the app's own CSS (styles.css)
    const token = theme.getDesignToken(themeConfig);
    const vars: Record<string, string> = {
      '--portal-color-primary': token.colorPrimary,
      '--portal-color-text': token.colorText,
      '--portal-color-text-tertiary': token.colorTextTertiary,
      '--portal-color-border-secondary': token.colorBorderSecondary,
      '--portal-color-bg-text-hover': token.colorBgTextHover,
      // the filters' stand-in before antd's Select is loaded (shared/ui/DeferredSelect.tsx)
      '--portal-color-border': token.colorBorder,
      '--portal-color-bg-container': token.colorBgContainer,
      '--portal-color-text-placeholder': token.colorTextPlaceholder,
      '--portal-border-radius': `${token.borderRadius}px`,
    };
    for (const [name, value] of Object.entries(vars)) root.style.setProperty(name, value);
  }, [kind, i18n.language, themeConfig]);

  return (
    <ThemeKindContext value={kind}>
      <ConfigProvider theme={themeConfig} locale={antdLocale(currentLanguage())}>
        <AntdApp>
          <Bridges />
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AntdApp>
      </ConfigProvider>
    </ThemeKindContext>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Themed />
    </QueryClientProvider>
  );
}
