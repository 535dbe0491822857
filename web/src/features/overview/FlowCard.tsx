import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PlantTime } from '@/shared/devices/PlantTime';
import { flowQuery } from './api';
import { flowModel } from './flow';
import { FlowDiagram } from './FlowDiagram';

/**
 * The live energy flow, refreshed every 30 s, with the time of its newest data in the plant's
 * zone (below the diagram: in the card's header it would squeeze the title on a phone).
 */
export function FlowCard({
  plantId,
  storage,
  zone,
}: {
  plantId: number;
  storage: boolean;
  zone: string | undefined;
}) {
  const { t } = useTranslation();
  const q = useQuery(flowQuery(plantId));
  return (
    <Card title={t('overview.flow.title')} data-testid="flow-card">
      {q.isError ? (
        <Alert type="warning" showIcon message={t('overview.loadFailed')} />
      ) : !q.data ? (
        <Skeleton active />
      ) : (
        <>
          <FlowDiagram model={flowModel(q.data, storage)} />
          <Typography.Text
            type="secondary"
            data-testid="flow-time"
            style={{ display: 'block', textAlign: 'center' }}
          >
            {t('overview.flow.updated')} <PlantTime value={q.data.time} zone={zone} />
          </Typography.Text>
        </>
      )}
    </Card>
  );
}
