import {
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, Flex, Typography, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { MessageBell } from '@/features/events';
import { LanguageSwitch } from '@/shared/ui/LanguageSwitch';
import { displayName, signOut, type CurrentUser } from '@/shared/user';

export function TopBar({
  user,
  collapsed,
  onToggle,
}: {
  user: CurrentUser;
  collapsed: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const items: MenuProps['items'] = [
    ...(user.readOnly
      ? []
      : [{ key: 'settings', icon: <SettingOutlined />, label: t('menu.settings') }]),
    { key: 'logout', icon: <LogoutOutlined />, label: t('layout.signOut'), danger: true },
  ];
  return (
    <Flex justify="space-between" align="center" style={{ height: '100%' }}>
      <Button
        type="text"
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={onToggle}
        aria-label={t(collapsed ? 'layout.expand' : 'layout.collapse')}
      />
      <Flex align="center" gap={8}>
        <MessageBell />
        <LanguageSwitch />
        {!user.readOnly && (
          <Link
            to="/edit"
            aria-label={t('menu.settings')}
            data-testid="settings-link"
            className="topbar-icon"
          >
            <SettingOutlined />
          </Link>
        )}
        <Dropdown
          trigger={['click']}
          menu={{
            items,
            onClick: ({ key }) => {
              if (key === 'settings') void navigate('/edit');
              if (key === 'logout') void signOut();
            },
          }}
        >
          <Button type="text" style={{ height: 48 }} data-testid="user-menu">
            <Flex align="center" gap={8}>
              <Avatar size={32} src={user.avatar || undefined} icon={<UserOutlined />} />
              <Typography.Text className="topbar-name" data-testid="nickname">
                {displayName(user)}
              </Typography.Text>
            </Flex>
          </Button>
        </Dropdown>
        <Button
          type="text"
          icon={<LogoutOutlined />}
          onClick={() => void signOut()}
          aria-label={t('layout.signOut')}
          data-testid="sign-out"
        >
          <span className="topbar-name">{t('layout.signOut')}</span>
        </Button>
      </Flex>
    </Flex>
  );
}
