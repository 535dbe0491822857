import { InfoCircleOutlined } from '@ant-design/icons';
import { Card, Empty, Flex, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { statusOf } from '@/shared/ui/status';
import { overviewHref, type FleetSummary } from './api';
import { elapsed } from './format';

/** Plants silent for longer than the bound while the sun was up over them: never heard first. */
export function SilentCard({ data, now }: { data: FleetSummary; now: number }) {
  const { t } = useTranslation();
  const silent = data.silent;
  const help = t('fleet.silent.help', { minutes: silent.minutes });
  return (
    <Card
      size="small"
      className="fleet-card"
      title={
        <Flex gap={6} align="center">
          {t('fleet.silent.title')}
          <Tooltip title={help}>
            <InfoCircleOutlined aria-label={help} data-testid="fleet-silent-help" />
          </Tooltip>
        </Flex>
      }
      data-testid="fleet-silent"
    >
      {silent.total === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('fleet.silent.empty')} />
      ) : (
        <Flex vertical gap={4}>
          <ul className="fleet-list">
            {silent.infos.map((p) => (
              <li key={p.plantId} className="fleet-row" data-testid="fleet-silent-plant">
                <span
                  className="fleet-dot"
                  style={{ background: statusOf(p.status).color }}
                  aria-hidden
                />
                <div className="fleet-row-main">
                  <Link to={overviewHref(p.plantId, p.plantType)} className="fleet-row-name">
                    {p.plantName}
                  </Link>
                  <div className="fleet-row-detail">
                    {p.lastHeard
                      ? t('fleet.silent.lastHeard', { time: elapsed(p.lastHeard, now, t) })
                      : t('fleet.silent.never')}
                    {' · '}
                    {p.daylightBy === 'clock' ? (
                      <Tag className="fleet-tag" data-testid="fleet-by-clock">
                        {t('fleet.silent.byClock')}
                      </Tag>
                    ) : (
                      t('fleet.silent.sun', { degrees: Math.round(p.sunElevation ?? 0) })
                    )}
                  </div>
                </div>
              </li>
            ))}
          </ul>
          {silent.total > silent.infos.length && (
            <Typography.Text type="secondary">
              {t('fleet.silent.shown', { shown: silent.infos.length, total: silent.total })}
            </Typography.Text>
          )}
        </Flex>
      )}
    </Card>
  );
}
