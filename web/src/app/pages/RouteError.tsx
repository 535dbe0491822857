import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Problem } from '@/shared/ui/Problem';

/** A page that failed to load (e.g. a chunk missing after a deployment): no more code needed. */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <Problem
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
