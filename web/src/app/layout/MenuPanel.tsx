import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useServerConfig } from '@/shared/config';
import { THEME_META, useThemeKind } from '@/shared/theme';
import { LogoMark } from '@/shared/ui/Logo';
import type { CurrentUser } from '@/shared/user';
import { selectedMenuKey, type MenuNode } from '../menu';
import { SideMenu } from './SideMenu';

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
            <span className="sider-title" style={{ color: token.colorText }}>
              {t(THEME_META[kind].titleKey)}
            </span>
          )}
        </>
      )}
    </Link>
  );
}

/** What the side panel holds (the sider on a desktop, the drawer on a phone). */
export function MenuPanel({
  user,
  menu,
  collapsed,
  onNavigate,
}: {
  user: CurrentUser;
  menu: readonly MenuNode[];
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const kind = useThemeKind();
  const { config } = useServerConfig();
  const { pathname } = useLocation();
  return (
    <div className="sider-inner">
      <Brand user={user} collapsed={collapsed} />
      <div className="sider-menu">
        <SideMenu
          menu={menu}
          selectedKey={selectedMenuKey(pathname, menu)}
          collapsed={collapsed}
          dark={kind === 'default'}
          onNavigate={onNavigate}
        />
      </div>
      {config.version && (
        <Link
          to="/systemupdate"
          className="sider-version"
          data-testid="version-label"
          onClick={onNavigate}
        >
          {collapsed
            ? config.version.replace(/^V/i, 'v').slice(0, 7)
            : t('layout.version', { version: config.version })}
        </Link>
      )}
    </div>
  );
}
