import {
  DeleteOutlined,
  EditOutlined,
  InfoCircleOutlined,
  LogoutOutlined,
  MoreOutlined,
  ShareAltOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { Button, Flex, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DeferredDropdown } from '@/shared/ui/DeferredDropdown';
import type { PlantRow } from './api';
import { rowActions, type RowAction } from './actions';

const ICONS: Record<RowAction, ReactNode> = {
  details: <InfoCircleOutlined />,
  edit: <EditOutlined />,
  share: <ShareAltOutlined />,
  transfer: <SwapOutlined />,
  delete: <DeleteOutlined />,
  leave: <LogoutOutlined />,
};
const DANGER: ReadonlySet<RowAction> = new Set(['delete', 'leave']);

/**
 * A row's actions: icon buttons with tooltips on a desktop, one "more" menu on a phone (five
 * icons do not fit beside a plant name in 390 px).
 */
export function RowActions({
  row,
  compact,
  onAction,
}: {
  row: PlantRow;
  compact: boolean;
  onAction: (action: RowAction) => void;
}) {
  const { t } = useTranslation();
  const actions = rowActions(row);
  const label = (a: RowAction) => t(a === 'details' ? 'plants.detail.title' : `plants.action.${a}`);
  if (compact) {
    return (
      <DeferredDropdown
        trigger={['click']}
        menu={{
          items: actions.map((a) => ({
            key: a,
            icon: ICONS[a],
            label: label(a),
            danger: DANGER.has(a),
            'data-testid': `action-${a}`,
          })),
          onClick: ({ key }) => onAction(key as RowAction),
        }}
      >
        <Button
          type="text"
          icon={<MoreOutlined />}
          aria-label={t('plants.column.actions')}
          data-testid="row-actions-menu"
        />
      </DeferredDropdown>
    );
  }
  return (
    <Flex align="center" data-testid="row-actions">
      {actions.map((a) => (
        <Tooltip title={label(a)} key={a}>
          <Button
            type="text"
            size="small"
            danger={DANGER.has(a)}
            icon={ICONS[a]}
            aria-label={label(a)}
            data-testid={`action-${a}`}
            onClick={() => onAction(a)}
          />
        </Tooltip>
      ))}
    </Flex>
  );
}
