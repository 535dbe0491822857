import { Grid } from 'antd';
import { useTranslation } from 'react-i18next';
import { SERIES_COLORS, type SeriesKind } from '@/shared/charts';
import { MISSING } from '@/shared/format/number';
import { formatPower } from '@/shared/format/units';
import type { FlowLink, FlowModel, FlowNode } from './flow';
import './overview.css';

interface Layout {
  width: number;
  height: number;
  hub: { x: number; y: number };
  nodes: Record<FlowNode, { x: number; y: number }>;
}

/** Where each node sits around the hub (the inverter): wide on a desk, tall on a phone. */
const LAYOUTS: Record<'wide' | 'tall', Layout> = {
  wide: {
    width: 520,
    height: 360,
    hub: { x: 260, y: 180 },
    nodes: {
      pv: { x: 260, y: 50 },
      grid: { x: 70, y: 180 },
      load: { x: 450, y: 180 },
      battery: { x: 260, y: 310 },
      generator: { x: 70, y: 50 },
    },
  },
  // A phone draws the diagram about 340 px wide: a narrow box keeps the text at full size.
  tall: {
    width: 320,
    height: 400,
    hub: { x: 160, y: 200 },
    nodes: {
      pv: { x: 160, y: 50 },
      grid: { x: 46, y: 200 },
      load: { x: 274, y: 200 },
      battery: { x: 160, y: 350 },
      generator: { x: 46, y: 50 },
    },
  },
};
const RADIUS = 38;

const COLOR: Record<FlowNode, SeriesKind> = {
  pv: 'pv',
  grid: 'grid',
  load: 'load',
  battery: 'battery',
  generator: 'generator',
};

/** A line from the node's edge to the hub's edge; dashes run node → hub. */
function path(layout: Layout, node: FlowNode): string {
  const p = layout.nodes[node];
  const hub = layout.hub;
  const dx = hub.x - p.x;
  const dy = hub.y - p.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const from = { x: p.x + ux * RADIUS, y: p.y + uy * RADIUS };
  const to = { x: hub.x - ux * RADIUS, y: hub.y - uy * RADIUS };
  return `M ${from.x.toFixed(1)} ${from.y.toFixed(1)} L ${to.x.toFixed(1)} ${to.y.toFixed(1)}`;
}

function Link({ link, layout }: { link: FlowLink; layout: Layout }) {
  const active = link.direction !== 'idle' && link.power > 0;
  const cls = [
    'flow-line',
    active ? 'is-active' : '',
    link.direction === 'fromHub' ? 'is-reverse' : '',
  ].join(' ');
  return (
    <path
      d={path(layout, link.node)}
      className={cls}
      stroke={SERIES_COLORS[COLOR[link.node]]}
      data-testid={`flow-line-${link.node}`}
      data-direction={active ? link.direction : 'idle'}
    />
  );
}

/**
 * The live energy flow: PV, battery (with SOC), grid, load and generator around the inverter,
 * animated dashes in the direction energy moves. Only the nodes the plant has are drawn. A
 * stale flow is greyed and still. On a phone the nodes stack in a tall box so the text keeps
 * its size.
 */
export function FlowDiagram({ model }: { model: FlowModel }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const layout = LAYOUTS[screens.sm === false ? 'tall' : 'wide'];
  const hub = layout.hub;
  // Without a battery below the hub the box ends under it.
  const height = model.links.some((l) => l.node === 'battery')
    ? layout.height
    : hub.y + RADIUS + 24;
  return (
    <svg
      viewBox={`0 0 ${layout.width} ${height}`}
      className={['flow-diagram', model.stale ? 'live-stale' : ''].join(' ')}
      style={{ maxWidth: layout.width }}
      role="img"
      aria-label={t('overview.flow.title')}
      data-testid="flow-diagram"
      data-stale={model.stale ? 'true' : 'false'}
    >
      {model.links.map((l) => (
        <Link key={l.node} link={l} layout={layout} />
      ))}
      <g>
        <rect
          x={hub.x - RADIUS}
          y={hub.y - RADIUS}
          width={RADIUS * 2}
          height={RADIUS * 2}
          rx={10}
          className="flow-node-circle"
          stroke={SERIES_COLORS.other}
        />
        <text x={hub.x} y={hub.y + 5} textAnchor="middle" className="flow-node-label">
          {t('overview.flow.inverter')}
        </text>
      </g>
      {model.links.map((l) => {
        const p = layout.nodes[l.node];
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
              y={p.y + 15}
              textAnchor="middle"
              className="flow-node-value"
              data-testid={`flow-${l.node}-power`}
            >
              {formatPower(l.power)}
            </text>
            {l.node === 'battery' && (
              <text
                x={p.x + RADIUS + 8}
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
