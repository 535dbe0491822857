import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';
import { statusOf } from '@/shared/ui/status';

export function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const s = statusOf(status);
  return <Badge color={s.color} text={t(`gateways.status.${s.key}`)} />;
}
