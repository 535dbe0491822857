import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PublicShell } from '@/shared/ui/PublicShell';
import { UpdateLog } from './UpdateLog';

/** /firmwareLogging: the update log, open without sign-in. */
export default function FirmwareLogPage() {
  const { t } = useTranslation();
  return (
    <PublicShell wide>
      <Card>
        <Typography.Title level={3}>{t('updateLog.title')}</Typography.Title>
        <UpdateLog />
      </Card>
    </PublicShell>
  );
}
