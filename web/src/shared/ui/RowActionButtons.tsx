import { MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';

/** One action of a table row. */
export interface RowAction {
  key: string;
  label: string;
  icon: ReactNode;
  danger?: boolean;
  /** Shown but not usable, with the reason as its tooltip. */
  disabledReason?: string;
  onClick: () => void;
}

/**
 * A row's actions: icon buttons with tooltips on a wide screen, one "more" menu on a phone
 * (several icons beside a name do not fit in 390 px). Test ids: `action-<key>`.
 */
export function RowActionButtons({
  actions,
  compact,
  menuLabel,
}: {
  actions: readonly RowAction[];
  compact: boolean;
  /** The accessible name of the phone's menu button. */
  menuLabel: string;
}) {
  if (actions.length === 0) return null;
  if (compact) {
    return (
      <Dropdown
        trigger={['click']}
        menu={{
          items: actions.map((a) => ({
            key: a.key,
            icon: a.icon,
            label: a.label,
            danger: a.danger,
            disabled: !!a.disabledReason,
            title: a.disabledReason,
            'data-testid': `action-${a.key}`,
          })),
          onClick: ({ key }) => actions.find((a) => a.key === key)?.onClick(),
        }}
      >
        <Button
          type="text"
          icon={<MoreOutlined />}
          aria-label={menuLabel}
          data-testid="row-actions-menu"
        />
      </Dropdown>
    );
  }
  return (
    <Space size={0} data-testid="row-actions">
      {actions.map((a) => (
        <Tooltip title={a.disabledReason ?? a.label} key={a.key}>
          <Button
            type="text"
            size="small"
            danger={a.danger}
            icon={a.icon}
            aria-label={a.label}
            disabled={!!a.disabledReason}
            data-testid={`action-${a.key}`}
            onClick={a.onClick}
          />
        </Tooltip>
      ))}
    </Space>
  );
}
