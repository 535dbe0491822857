import { SwapOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '../permissions';

/**
 * Opens the communication log of a gateway, or of the gateway a device reports through (the
 * log finds it: GET /api/v1/logger/getInverterLogger/{sn}). Shown with `logger.communication`.
 */
export function CommLogButton({ kind, sn }: { kind: 'gateway' | 'device'; sn: string }) {
  const { t } = useTranslation();
  const may = useCan('logger.communication');
  if (!may) return null;
  const param = kind === 'gateway' ? 'sn' : 'device';
  return (
    <Link
      to={`/log/communication?${new URLSearchParams({ [param]: sn }).toString()}`}
      data-testid="commlog-open"
    >
      <Button icon={<SwapOutlined />}>{t('commLog.link')}</Button>
    </Link>
  );
}
