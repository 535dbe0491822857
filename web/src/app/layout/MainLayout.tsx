import { useQuery } from '@tanstack/react-query';
import { Button, Layout } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPath, useLocation } from 'react-router';
import { permissionQuery } from '@/shared/permissions';
import { THEME_META, useThemeKind } from '@/shared/theme';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { Problem } from '@/shared/ui/Problem';
import { useNarrow } from '@/shared/ui/useNarrow';
import { userQuery } from '@/shared/user';
import { buildMenu } from '../menu';
import { MENU_GROUPS, ROUTES } from '../registry';
import { KeepAliveOutlet } from './KeepAliveOutlet';
import { MenuPanel } from './MenuPanel';
import { TopBar } from './TopBar';

const { Sider, Header, Content, Footer } = Layout;
const COLLAPSED_KEY = 'portal.menuCollapsed';
const MenuDrawer = lazy(() => import('./MenuDrawer'));

const keepAlive = (pathname: string) =>
  ROUTES.some((r) => r.keepAlive && matchPath({ path: r.path, end: true }, pathname));

/**
 * The signed-in frame: side menu, top bar, page, footer. Loads the user and permissions first.
 * On a phone (below 768 px) the menu is a drawer opened from the top bar's menu button, so the
 * page gets the whole width.
 */
export function MainLayout() {
  const { t } = useTranslation();
  const kind = useThemeKind();
  const { pathname } = useLocation();
  const narrow = useNarrow();
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSED_KEY) === '1');
  const [drawerOpen, setDrawerOpen] = useState(false);
  // the drawer's code loads on the first tap of the menu button
  const [drawerUsed, setDrawerUsed] = useState(false);
  const [drawerPath, setDrawerPath] = useState(pathname);
  const user = useQuery(userQuery);
  const permissions = useQuery(permissionQuery());

  if (drawerPath !== pathname) {
    // adjusting state while rendering: any navigation (a link in a page too) closes the drawer
    setDrawerPath(pathname);
    setDrawerOpen(false);
  }

  const menu = useMemo(
    () => (permissions.data ? buildMenu(ROUTES, MENU_GROUPS, permissions.data.routes) : []),
    [permissions.data],
  );

  if (user.isError || (permissions.isError && !permissions.data)) {
    return (
      <Problem
        title={t('layout.permissionFailed')}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            {t('common.refresh')}
          </Button>
        }
      />
    );
  }
  if (!user.data || !permissions.data) return <FullPageSpin />;

  const toggle = () => {
    if (narrow) {
      setDrawerOpen(true);
      setDrawerUsed(true);
      return;
    }
    localStorage.setItem(COLLAPSED_KEY, collapsed ? '0' : '1');
    setCollapsed(!collapsed);
  };
  const dark = kind === 'default';

  return (
    <Layout
      style={{ minHeight: '100vh' }}
      className={`main-layout main-${kind}${narrow ? ' main-narrow' : ''}`}
    >
      {narrow ? (
        drawerUsed && (
          <Suspense fallback={null}>
            <MenuDrawer
              open={drawerOpen}
              dark={dark}
              onClose={() => setDrawerOpen(false)}
              user={user.data}
              menu={menu}
            />
          </Suspense>
        )
      ) : (
        <Sider
          collapsible
          collapsed={collapsed}
          trigger={null}
          width={240}
          collapsedWidth={72}
          theme={dark ? 'dark' : 'light'}
          className="main-sider"
        >
          <MenuPanel user={user.data} menu={menu} collapsed={collapsed} />
        </Sider>
      )}
      <Layout className="main-body">
        <Header className="main-header">
          <TopBar
            user={user.data}
            narrow={narrow}
            collapsed={narrow ? !drawerOpen : collapsed}
            onToggle={toggle}
          />
        </Header>
        <Content className="main-content">
          <KeepAliveOutlet keepAlive={keepAlive} />
        </Content>
        <Footer className="main-footer" data-testid="footer">
          {t('layout.footer', {
            year: new Date().getFullYear(),
            name: t(THEME_META[kind].titleKey),
          })}
        </Footer>
      </Layout>
    </Layout>
  );
}
