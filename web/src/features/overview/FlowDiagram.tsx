import { useTranslation } from 'react-i18next';
import { SERIES_COLORS, type SeriesKind } from '@/shared/charts';
import { formatCompact, MISSING } from '@/shared/format/number';
import type { FlowLink, FlowModel, FlowNode } from './flow';
import './overview.css';

/** Where each node sits around the hub (the inverter) in a 520 x 360 box. */
const POSITIONS: Record<FlowNode, { x: number; y: number }> = {
  pv: { x: 260, y: 50 },
  grid: { x: 70, y: 180 },
  load: { x: 450, y: 180 },
  battery: { x: 260, y: 310 },
  generator: { x: 70, y: 50 },
};
const HUB = { x: 260, y: 180 };
const RADIUS = 34;

const COLOR: Record<FlowNode, SeriesKind> = {
  pv: 'pv',
  grid: 'grid',
  load: 'load',
  battery: 'battery',
  generator: 'generator',
};

/** A line from the node's edge to the hub's edge; dashes run node → hub. */
function path(node: FlowNode): string {
  const p = POSITIONS[node];
  const dx = HUB.x - p.x;
  const dy = HUB.y - p.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const from = { x: p.x + ux * RADIUS, y: p.y + uy * RADIUS };
  const to = { x: HUB.x - ux * RADIUS, y: HUB.y - uy * RADIUS };
  return `M ${from.x.toFixed(1)} ${from.y.toFixed(1)} L ${to.x.toFixed(1)} ${to.y.toFixed(1)}`;
}

function Link({ link }: { link: FlowLink }) {
  const active = link.direction !== 'idle' && link.power > 0;
  const cls = [
    'flow-line',
    active ? 'is-active' : '',
    link.direction === 'fromHub' ? 'is-reverse' : '',
  ].join(' ');
  return (
    <path
      d={path(link.node)}
      className={cls}
      stroke={SERIES_COLORS[COLOR[link.node]]}
      data-testid={`flow-line-${link.node}`}
      data-direction={active ? link.direction : 'idle'}
    />
  );
}

/**
 * The live energy flow: PV, battery (with SOC), grid, load and generator around the inverter,
 * animated dashes in the direction energy moves. Only the nodes the plant has are drawn.
 */
export function FlowDiagram({ model }: { model: FlowModel }) {
  const { t } = useTranslation();
  return (
    <svg
      viewBox="0 0 520 360"
      className="flow-diagram"
      role="img"
      aria-label={t('overview.flow.title')}
      data-testid="flow-diagram"
    >
      {model.links.map((l) => (
        <Link key={l.node} link={l} />
      ))}
      <g>
        <rect
          x={HUB.x - RADIUS}
          y={HUB.y - RADIUS}
          width={RADIUS * 2}
          height={RADIUS * 2}
          rx={10}
          className="flow-node-circle"
          stroke={SERIES_COLORS.other}
        />
        <text x={HUB.x} y={HUB.y + 5} textAnchor="middle" className="flow-node-label">
          {t('overview.flow.inverter')}
        </text>
      </g>
      {model.links.map((l) => {
        const p = POSITIONS[l.node];
        const below = l.node === 'battery';
        return (
          <g key={l.node} data-testid={`flow-${l.node}`}>
            <circle
              cx={p.x}
              cy={p.y}
              r={RADIUS}
              className="flow-node-circle"
              stroke={SERIES_COLORS[COLOR[l.node]]}
            />
            <text x={p.x} y={p.y - 4} textAnchor="middle" className="flow-node-label">
              {t(`overview.flow.${l.node}`)}
            </text>
            <text
              x={p.x}
              y={p.y + 14}
              textAnchor="middle"
              className="flow-node-value"
              data-testid={`flow-${l.node}-power`}
            >
              {formatCompact(l.power, 'W')}
            </text>
            {below && (
              <text
                x={p.x + RADIUS + 10}
                y={p.y + 5}
                className="flow-node-value"
                data-testid="flow-soc"
              >
                {model.soc === null
                  ? MISSING
                  : `${t('overview.flow.soc')} ${Math.round(model.soc)}%`}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
