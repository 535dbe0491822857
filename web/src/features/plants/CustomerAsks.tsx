import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * Companies asking to serve the caller, answered on the shared-management screen: a notice
 * above the list, loaded only when there are some (rare), as antd's Alert is not on the list's
 * first screen.
 */
export default function CustomerAsks({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="info"
      showIcon
      data-testid="customer-offers-alert"
      title={t('consent.offers.title', { count })}
      action={
        <Link to="/shares" data-testid="customer-offers-open">
          {t('consent.filter.manage')}
        </Link>
      }
    />
  );
}
