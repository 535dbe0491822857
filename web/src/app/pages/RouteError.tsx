import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** A page that failed to load (e.g. a chunk missing after a deployment). */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={t('errors.requestError')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('common.refresh')}
        </Button>
      }
    />
  );
}
