import { MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

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
 * A row's actions: icon buttons with tooltips on a desktop, one "more" menu on a phone (the
 * plant list's pattern), so a row never widens the table.
 */
export function RowMenu({ actions, compact }: { actions: RowAction[]; compact: boolean }) {
  const { t } = useTranslation();
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
          aria-label={t('company.actions')}
          data-testid="row-actions-menu"
        />
      </Dropdown>
    );
  }
  return (
    <Space size={0}>
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
