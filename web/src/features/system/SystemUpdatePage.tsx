import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { UpdateLog } from './UpdateLog';

/** /systemupdate: the same log inside the signed-in layout. */
export default function SystemUpdatePage() {
  const { t } = useTranslation();
  return (
    <Card title={t('updateLog.title')}>
      <UpdateLog />
    </Card>
  );
}
