import { Drawer } from 'antd';
import type { ComponentProps } from 'react';
import { MenuPanel } from './MenuPanel';

/** The phone's menu: the side panel in a drawer from the left (loaded when first opened). */
export default function MenuDrawer({
  open,
  dark,
  onClose,
  ...panel
}: { open: boolean; dark: boolean; onClose: () => void } & Omit<
  ComponentProps<typeof MenuPanel>,
  'collapsed' | 'onNavigate'
>) {
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="left"
      size={264}
      closable={false}
      className={`menu-drawer${dark ? ' menu-drawer-dark' : ''}`}
      data-testid="menu-drawer"
    >
      <MenuPanel {...panel} collapsed={false} onNavigate={onClose} />
    </Drawer>
  );
}
