import { useQuery } from '@tanstack/react-query';
import { Button, Grid, Layout, Result, theme, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, matchPath, useLocation } from 'react-router';
import { useServerConfig } from '@/shared/config';
import { permissionQuery } from '@/shared/permissions';
import { THEME_META, useThemeKind } from '@/shared/theme';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { LogoMark } from '@/shared/ui/Logo';
import { userQuery, type CurrentUser } from '@/shared/user';
import { buildMenu, selectedMenuKey } from '../menu';
import { MENU_GROUPS, ROUTES } from '../registry';
import { KeepAliveOutlet } from './KeepAliveOutlet';
import { SideMenu } from './SideMenu';
import { TopBar } from './TopBar';

const { Sider, Header, Content, Footer } = Layout;
const COLLAPSED_KEY = 'portal.menuCollapsed';

const keepAlive = (pathname: string) =>
  ROUTES.some((r) => r.keepAlive && matchPath({ path: r.path, end: true }, pathname));

function Brand({ user, collapsed }: { user: CurrentUser; collapsed: boolean }) {
  const { t } = useTranslation();
  const kind = useThemeKind();
  const { token } = theme.useToken();
  const logo = collapsed ? user.company?.iconUrl : user.company?.logoUrl;
  return (
    <Link to="/" className="sider-brand" aria-label={t('menu.home')}>
      {logo ? (
        <img
          src={logo}
          alt={user.company?.name ?? ''}
          className={collapsed ? 'brand-icon' : 'brand-logo'}
        />
      ) : (
        <>
          <LogoMark size={32} />
          {!collapsed && (
            <Typography.Text strong ellipsis style={{ color: token.colorText, fontSize: 16 }}>
              {t(THEME_META[kind].titleKey)}
            </Typography.Text>
          )}
        </>
      )}
    </Link>
  );
}

/** The signed-in frame: side menu, top bar, page, footer. Loads the user and permissions first. */
export function MainLayout() {
  const { t } = useTranslation();
  const kind = useThemeKind();
  const { config } = useServerConfig();
  const { pathname } = useLocation();
  const screens = Grid.useBreakpoint();
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSED_KEY) === '1');
  const user = useQuery(userQuery);
  const permissions = useQuery(permissionQuery());

  const menu = useMemo(
    () => (permissions.data ? buildMenu(ROUTES, MENU_GROUPS, permissions.data.routes) : []),
    [permissions.data],
  );

  if (user.isError || (permissions.isError && !permissions.data)) {
    return (
      <Result
        status="warning"
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

  const narrow = screens.md === false;
  const isCollapsed = collapsed || narrow;
  const toggle = () => {
    localStorage.setItem(COLLAPSED_KEY, collapsed ? '0' : '1');
    setCollapsed(!collapsed);
  };

  return (
    <Layout style={{ minHeight: '100vh' }} className={`main-layout main-${kind}`}>
      <Sider
        collapsible
        collapsed={isCollapsed}
        trigger={null}
        width={232}
        collapsedWidth={72}
        theme={kind === 'default' ? 'dark' : 'light'}
        className="main-sider"
      >
        <div className="sider-inner">
          <Brand user={user.data} collapsed={isCollapsed} />
          <div className="sider-menu">
            <SideMenu
              menu={menu}
              selectedKey={selectedMenuKey(pathname, menu)}
              collapsed={isCollapsed}
              dark={kind === 'default'}
            />
          </div>
          {config.version && (
            <Link to="/systemupdate" className="sider-version" data-testid="version-label">
              {isCollapsed
                ? config.version.replace(/^V/i, 'v').slice(0, 7)
                : t('layout.version', { version: config.version })}
            </Link>
          )}
        </div>
      </Sider>
      <Layout>
        <Header className="main-header">
          <TopBar user={user.data} collapsed={isCollapsed} onToggle={toggle} />
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
