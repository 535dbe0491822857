import { HistoryOutlined, HomeOutlined } from '@ant-design/icons';
import { SettingsPage } from '@/features/account';
import { HomePage } from '@/features/home';
import { SystemUpdatePage } from '@/features/system';
import type { MenuGroup, RouteEntry } from './menu';

/**
 * Menu groups (parent routes of SPEC section 2). A group shows once a screen of it exists and
 * the permission tree allows it; features add their groups here with their first screen.
 */
export const MENU_GROUPS: readonly MenuGroup[] = [];

/**
 * The screens inside the main layout. Only screens that exist are listed: a feature adds its
 * entries (path, permission key, icon, label, element) and the menu follows the permissions.
 */
export const ROUTES: readonly RouteEntry[] = [
  { path: '/', labelKey: 'menu.home', icon: <HomeOutlined />, element: HomePage, keepAlive: true },
  { path: '/edit', labelKey: 'menu.settings', element: SettingsPage, hideInMenu: true },
  {
    path: '/systemupdate',
    labelKey: 'menu.systemUpdate',
    icon: <HistoryOutlined />,
    element: SystemUpdatePage,
    hideInMenu: true,
  },
];
