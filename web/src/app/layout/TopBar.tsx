import {
  BellOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  SettingOutlined,
  ShareAltOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Flex, type MenuProps } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DeferredDropdown } from '@/shared/ui/DeferredDropdown';
import { LanguageSwitch } from '@/shared/ui/LanguageSwitch';
import { LogoMark } from '@/shared/ui/Logo';
import { displayName, signOut, type CurrentUser } from '@/shared/user';

// The bell (its message list, paging) loads beside the page, not before the shell can show.
const MessageBell = lazy(() =>
  import('@/features/events/MessageBell').then((m) => ({ default: m.MessageBell })),
);

/**
 * The top bar. On a phone it keeps to icons (menu, home, messages, language, account, sign
 * out) so that everything fits in 360 px; the labels come back from 768 px.
 */
export function TopBar({
  user,
  narrow,
  collapsed,
  onToggle,
}: {
  user: CurrentUser;
  narrow: boolean;
  collapsed: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const items: MenuProps['items'] = [
    ...(user.readOnly
      ? []
      : [{ key: 'preferences', icon: <SettingOutlined />, label: t('menu.preferences') }]),
    { key: 'shares', icon: <ShareAltOutlined />, label: t('consent.menu') },
    { key: 'logout', icon: <LogoutOutlined />, label: t('layout.signOut'), danger: true },
  ];
  const toggleIcon = narrow ? (
    <MenuOutlined />
  ) : collapsed ? (
    <MenuUnfoldOutlined />
  ) : (
    <MenuFoldOutlined />
  );
  const toggleLabel = narrow ? 'layout.openMenu' : collapsed ? 'layout.expand' : 'layout.collapse';
  return (
    <Flex justify="space-between" align="center" gap={8} style={{ height: '100%' }}>
      <Flex align="center" gap={8} style={{ minWidth: 0 }}>
        <Button
          type="text"
          icon={toggleIcon}
          onClick={onToggle}
          aria-label={t(toggleLabel)}
          aria-expanded={narrow ? !collapsed : undefined}
          data-testid="menu-toggle"
        />
        {narrow && (
          <Link to="/" aria-label={t('menu.home')} className="topbar-home">
            <LogoMark size={28} />
          </Link>
        )}
      </Flex>
      <Flex align="center" gap={narrow ? 2 : 8} style={{ minWidth: 0 }}>
        <Suspense
          fallback={
            <Button type="text" icon={<BellOutlined />} disabled aria-hidden tabIndex={-1} />
          }
        >
          <MessageBell />
        </Suspense>
        <LanguageSwitch compact={narrow} />
        {!user.readOnly && !narrow && (
          <Link
            to="/edit"
            aria-label={t('menu.preferences')}
            data-testid="settings-link"
            className="topbar-icon"
          >
            <SettingOutlined />
          </Link>
        )}
        <DeferredDropdown
          trigger={['click']}
          menu={{
            items,
            onClick: ({ key }) => {
              if (key === 'preferences') void navigate('/edit');
              if (key === 'shares') void navigate('/shares');
              if (key === 'logout') void signOut();
            },
          }}
        >
          <Button
            type="text"
            style={{ height: 48, paddingInline: narrow ? 4 : undefined }}
            aria-label={displayName(user)}
            data-testid="user-menu"
          >
            <Flex align="center" gap={8}>
              <Avatar size={32} src={user.avatar || undefined} icon={<UserOutlined />} />
              {!narrow && (
                <span className="topbar-name" data-testid="nickname">
                  {displayName(user)}
                </span>
              )}
            </Flex>
          </Button>
        </DeferredDropdown>
        <Button
          type="text"
          icon={<LogoutOutlined />}
          onClick={() => void signOut()}
          aria-label={t('layout.signOut')}
          title={t('layout.signOut')}
          data-testid="sign-out"
        >
          {!narrow && <span className="topbar-name">{t('layout.signOut')}</span>}
        </Button>
      </Flex>
    </Flex>
  );
}
