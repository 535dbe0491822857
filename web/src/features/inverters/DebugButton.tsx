import { CodeOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * Opens the debug toolbox aimed at this device. Shown when the caller holds `inverter.debug`
 * on the device's plant (`keys`: the plant permissions the detail answer carries, so a
 * maintainer of a shared plant sees it and a visitor does not).
 */
export function DebugButton({
  sn,
  kind,
  keys,
}: {
  sn: string;
  kind: 'inverter' | 'gateway';
  keys: readonly string[];
}) {
  const { t } = useTranslation();
  if (!keys.includes('inverter.debug')) return null;
  return (
    <Link to={`/debug?kind=${kind}&sn=${encodeURIComponent(sn)}`} data-testid="debug-open">
      <Button icon={<CodeOutlined />}>{t('debug.menu')}</Button>
    </Link>
  );
}
