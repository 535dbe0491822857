import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';

/** Device status colours (docs/overview.md), by wire code. */
const STATUS_COLORS: Record<number, string> = {
  0: '#94a3b8',
  1: '#22c55e',
  2: '#f59e0b',
  3: '#ef4444',
  4: '#3b82f6',
};
const STATUS_KEYS: Record<number, string> = {
  0: 'offline',
  1: 'normal',
  2: 'warning',
  3: 'fault',
  4: 'upgrading',
};

export function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const key = STATUS_KEYS[status] ?? 'offline';
  return (
    <Badge color={STATUS_COLORS[status] ?? STATUS_COLORS[0]} text={t(`gateways.status.${key}`)} />
  );
}
