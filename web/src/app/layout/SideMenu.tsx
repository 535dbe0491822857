import { Menu, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isCompanyScreen, scopedPath, useScope } from '@/shared/company';
import { groupOf, type MenuNode } from '../menu';

type Item = Required<MenuProps>['items'][number];

/** The accordion side menu: one open group at a time. */
export function SideMenu({
  menu,
  selectedKey,
  collapsed,
  dark,
  onNavigate,
}: {
  menu: readonly MenuNode[];
  selectedKey: string | undefined;
  collapsed: boolean;
  dark: boolean;
  /** Called after an item was chosen (the phone drawer closes). */
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // an internal administrator looking at one company stays with it from screen to screen
  const { scope } = useScope();
  const selectedGroup = groupOf(selectedKey, menu);
  const [openKeys, setOpenKeys] = useState<string[]>(selectedGroup ? [selectedGroup] : []);
  const [lastGroup, setLastGroup] = useState(selectedGroup);
  if (selectedGroup !== lastGroup) {
    // navigating into another group opens it (and closes the others)
    setLastGroup(selectedGroup);
    if (selectedGroup) setOpenKeys([selectedGroup]);
  }

  const toItem = (node: MenuNode): Item =>
    node.children
      ? {
          key: node.key,
          icon: node.icon,
          label: t(node.labelKey),
          children: node.children.map(toItem),
        }
      : ({
          key: node.key,
          icon: node.icon,
          label: t(node.labelKey),
          'data-menu-key': node.key,
        } as Item);

  return (
    <Menu
      mode="inline"
      theme={dark ? 'dark' : 'light'}
      inlineCollapsed={collapsed}
      // 16 px steps (not 24): a group's items keep room for long labels such as the Spanish
      // "Estaciones meteorológicas" in the 240 px menu
      inlineIndent={16}
      selectedKeys={selectedKey ? [selectedKey] : []}
      openKeys={collapsed ? undefined : openKeys}
      onOpenChange={(keys) => {
        const opened = keys.find((k) => !openKeys.includes(k));
        setOpenKeys(opened ? [opened] : keys);
      }}
      onClick={({ key }) => {
        void navigate(isCompanyScreen(key) ? scopedPath(key, scope) : key);
        onNavigate?.();
      }}
      items={menu.map(toItem)}
      style={{ borderInlineEnd: 'none' }}
      data-testid="side-menu"
    />
  );
}
