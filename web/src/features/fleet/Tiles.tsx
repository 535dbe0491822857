import { Badge, Card, Col, Flex, Row, Statistic, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatEnergy, formatPower, formatQuantity } from '@/shared/format/units';
import { STATUSES } from '@/shared/ui/status';
import { plantListHref, type FleetQuery, type FleetSummary } from './api';

/**
 * The plants per status, each tile opening the plant list with the dashboard's filters and
 * that status; then today's energy, current power and the installed capacity.
 */
export function Tiles({ data, query }: { data: FleetSummary; query: FleetQuery }) {
  const { t } = useTranslation();
  const counts = data.plants;
  const tiles = [
    {
      key: 'total',
      href: plantListHref(query),
      title: t('fleet.tile.total'),
      value: counts.total,
      note: null,
    },
    ...STATUSES.map((s) => ({
      key: s.key,
      href: plantListHref(query, s.value),
      title: <Badge color={s.color} text={t(`plants.status.${s.key}`)} />,
      value: counts[s.key],
      note:
        s.key === 'offline' && counts.noDevices > 0
          ? t('fleet.tile.noDevices', { count: counts.noDevices })
          : null,
    })),
  ];
  const label = (key: string) =>
    key === 'total' ? t('fleet.tile.total') : t(`plants.status.${key}`);
  return (
    <Flex vertical gap={12}>
      <Row gutter={[12, 12]} data-testid="fleet-status">
        {tiles.map((tile) => (
          <Col key={tile.key} xs={12} sm={8} lg={4}>
            <Link
              to={tile.href}
              className="fleet-tile-link"
              aria-label={t('fleet.tile.open', { label: label(tile.key) })}
              data-testid={`fleet-tile-${tile.key}`}
            >
              <Card size="small" hoverable className="fleet-tile">
                <Statistic title={tile.title} value={tile.value} />
                <div className="fleet-tile-note">{tile.note ?? '\u00a0'}</div>
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
      <Row gutter={[12, 12]} data-testid="fleet-energy">
        <Col xs={24} sm={8}>
          <Card size="small" className="fleet-tile">
            <Tooltip title={t('fleet.energy.todayHelp')}>
              <Statistic
                title={t('fleet.energy.today')}
                value={formatEnergy(data.energy.todayKwh)}
                data-testid="fleet-energy-today"
              />
            </Tooltip>
          </Card>
        </Col>
        <Col xs={12} sm={8}>
          <Card size="small" className="fleet-tile">
            <Statistic
              title={t('fleet.energy.power')}
              value={formatPower(data.energy.powerW)}
              data-testid="fleet-power"
            />
          </Card>
        </Col>
        <Col xs={12} sm={8}>
          <Card size="small" className="fleet-tile">
            <Statistic
              title={t('fleet.energy.capacity')}
              value={formatQuantity(data.energy.capacityKwp, 'kWp')}
              data-testid="fleet-capacity"
            />
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}
