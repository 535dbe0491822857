import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { PlantTime } from './PlantTime';
import './stale.css';

/**
 * "Offline · last data 2025-06-01 14:05:09 (Europe/Madrid)": shown above live values that are
 * stale (the server's `stale`), with the time of the newest data in the plant's zone. Nothing
 * while the values are live.
 */
export function StaleNotice({
  stale,
  updateAt,
  zone,
  testId = 'stale-notice',
}: {
  stale: boolean | null | undefined;
  /** The newest data: an instant (`updateAt`) or a plant-local time; null if none ever came. */
  updateAt: string | null | undefined;
  zone: string | null | undefined;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (!stale) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid={testId}
      message={
        updateAt ? (
          <>
            {t('live.offline')} <PlantTime value={updateAt} zone={zone} />
          </>
        ) : (
          t('live.never')
        )
      }
      description={t('live.hint')}
    />
  );
}
