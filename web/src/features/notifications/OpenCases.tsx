import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '@/shared/api/client';
import { useCan } from '@/shared/permissions';

/** The alarm cases nobody has acknowledged yet, with the way to them: the messages list holds
 * events, the cases live on the Alarms screen. Nothing when there are none, or no right. */
export function OpenCases() {
  const may = useCan('event.view');
  return may ? <Count /> : null;
}

function Count() {
  const { t } = useTranslation();
  const open = useQuery({
    // under the Alarms screen's keys: acknowledging there refreshes this count
    queryKey: ['alarms', 'openCount'],
    queryFn: () => api.get('/api/v1/alarm/cases', { query: { state: 'open', page: 1, limit: 1 } }),
    refetchInterval: 60_000,
  });
  const total = open.data?.total ?? 0;
  if (!total) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="notifications-open-cases"
      message={
        <Link to="/alarms?state=open">{t('notifications.openCases', { count: total })}</Link>
      }
    />
  );
}
