import { InfoCircleOutlined } from '@ant-design/icons';
import { Badge, Card, Empty, Flex, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '@/shared/permissions';
import { severityColor } from '@/shared/ui/status';
import { openEventsHref, overviewHref, type FleetSummary } from './api';
import { elapsed } from './format';

/**
 * The plants with open warnings or faults, faults first and then the longest open: each row
 * opens the plant, its "Events" link the plant's open events; the card's link every open event.
 */
export function AlarmsCard({ data, now }: { data: FleetSummary; now: number }) {
  const { t } = useTranslation();
  const mayEvents = useCan('event.view');
  const alarms = data.alarms;
  return (
    <Card
      size="small"
      className="fleet-card"
      title={
        <Flex gap={6} align="center">
          {t('fleet.alarms.title')}
          <Tooltip title={t('fleet.alarms.help')}>
            <InfoCircleOutlined aria-label={t('fleet.alarms.help')} />
          </Tooltip>
        </Flex>
      }
      extra={
        mayEvents && (
          <Link to={openEventsHref()} data-testid="fleet-alarms-all">
            {t('fleet.alarms.all')}
          </Link>
        )
      }
      data-testid="fleet-alarms"
    >
      {alarms.plants === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('fleet.alarms.empty')} />
      ) : (
        <Flex vertical gap={4}>
          <Typography.Text type="secondary" data-testid="fleet-alarms-summary">
            {t('fleet.alarms.summary', {
              plants: alarms.plants,
              faults: alarms.faults,
              warnings: alarms.warnings,
            })}
          </Typography.Text>
          <ul className="fleet-list">
            {alarms.infos.map((a) => (
              <li key={a.plantId} className="fleet-row" data-testid="fleet-alarm">
                <Badge color={severityColor(a.severity)} />
                <div className="fleet-row-main">
                  <Link to={overviewHref(a.plantId, a.plantType)} className="fleet-row-name">
                    {a.plantName}
                  </Link>
                  <div className="fleet-row-detail">
                    <span className="fleet-code">{a.code}</span> {a.meaning ?? ''}
                  </div>
                  <div className="fleet-row-detail">
                    {t('fleet.alarms.counts', { faults: a.faults, warnings: a.warnings })}
                    {' · '}
                    {t('fleet.alarms.openFor', { time: elapsed(a.since, now, t) })}
                  </div>
                </div>
                {mayEvents && (
                  <Link to={openEventsHref(a.plantId)} className="fleet-row-action">
                    {t('fleet.alarms.events')}
                  </Link>
                )}
              </li>
            ))}
          </ul>
          {alarms.plants > alarms.infos.length && (
            <Typography.Text type="secondary">
              {t('fleet.alarms.shown', { shown: alarms.infos.length, total: alarms.plants })}
            </Typography.Text>
          )}
        </Flex>
      )}
    </Card>
  );
}
