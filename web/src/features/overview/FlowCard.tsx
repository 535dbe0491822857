import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { flowQuery } from './api';
import { flowModel } from './flow';
import { FlowDiagram } from './FlowDiagram';

/** The live energy flow, refreshed every 30 s. */
export function FlowCard({ plantId, storage }: { plantId: number; storage: boolean }) {
  const { t } = useTranslation();
  const q = useQuery(flowQuery(plantId));
  return (
    <Card
      title={t('overview.flow.title')}
      data-testid="flow-card"
      extra={
        <Typography.Text type="secondary" data-testid="flow-time">
          {t('overview.flow.updated', { time: q.data?.time ?? MISSING })}
        </Typography.Text>
      }
    >
      {q.isError ? (
        <Alert type="warning" showIcon message={t('overview.loadFailed')} />
      ) : !q.data ? (
        <Skeleton active />
      ) : (
        <FlowDiagram model={flowModel(q.data, storage)} />
      )}
    </Card>
  );
}
