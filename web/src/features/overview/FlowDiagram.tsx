import { Grid } from 'antd';
import { useId } from 'react';
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

const isActive = (link: FlowLink) => link.direction !== 'idle' && link.power > 0;

/**
 * What a two-way link's direction means, for a still image or a printout where the dashes do
 * not move: energy into the hub from the grid is imported, out to it exported; a battery
 * feeding the hub discharges, one fed by it charges. One-way links need no word.
 */
function directionKey(link: FlowLink): string | null {
  if (!isActive(link)) return null;
  const into = link.direction === 'toHub';
  if (link.node === 'grid') return into ? 'overview.flow.import' : 'overview.flow.export';
  if (link.node === 'battery') return into ? 'overview.flow.discharging' : 'overview.flow.charging';
  return null;
}

/** The arrowhead of a node's lines, in its colour (`auto-start-reverse` turns it at the start). */
function Arrow({ id, color }: { id: string; color: string }) {
  return (
    <marker
      id={id}
      viewBox="0 0 10 10"
      refX="7"
      refY="5"
      markerWidth="4"
      markerHeight="4"
      orient="auto-start-reverse"
    >
      <path d="M 0 0 L 10 5 L 0 10 z" fill={color} />
    </marker>
  );
}

/** A line with an arrowhead at the end energy flows to (the hub, or the node). */
function Link({ link, layout, arrow }: { link: FlowLink; layout: Layout; arrow: string }) {
  const active = isActive(link);
  const cls = [
    'flow-line',
    active ? 'is-active' : '',
    link.direction === 'fromHub' ? 'is-reverse' : '',
  ].join(' ');
  const head = `url(#${arrow})`;
  return (
    <path
      d={path(layout, link.node)}
      className={cls}
      stroke={SERIES_COLORS[COLOR[link.node]]}
      markerEnd={active && link.direction === 'toHub' ? head : undefined}
      markerStart={active && link.direction === 'fromHub' ? head : undefined}
      data-testid={`flow-line-${link.node}`}
      data-direction={active ? link.direction : 'idle'}
    />
  );
}

/** The word of a two-way link's direction: under the grid, left of the battery (SOC is right). */
function DirectionLabel({ link, layout, text }: { link: FlowLink; layout: Layout; text: string }) {
  const p = layout.nodes[link.node];
  const beside = link.node === 'battery';
  return (
    <text
      x={beside ? p.x - RADIUS - 8 : p.x}
      y={beside ? p.y + 5 : p.y + RADIUS + 16}
      textAnchor={beside ? 'end' : 'middle'}
      className="flow-direction"
      fill={SERIES_COLORS[COLOR[link.node]]}
      data-testid={`flow-${link.node}-direction`}
    >
      {text}
    </text>
  );
}

/**
 * The live energy flow: PV, battery (with SOC), grid, load and generator around the inverter,
 * animated dashes in the direction energy moves, an arrowhead where it goes, and the words of
 * the grid's and the battery's direction (import or export, charging or discharging), so a
 * still image or a printout tells them apart too. Only the nodes the plant has are drawn. A
 * stale flow is greyed and still. On a phone the nodes stack in a tall box so the text keeps
 * its size.
 */
export function FlowDiagram({ model }: { model: FlowModel }) {
  const { t } = useTranslation();
  // marker ids are document-wide: one set per diagram
  const uid = useId().replace(/:/g, '');
  const arrowId = (node: FlowNode) => `flow-arrow-${uid}-${node}`;
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
      <defs>
        {model.links.map((l) => (
          <Arrow key={l.node} id={arrowId(l.node)} color={SERIES_COLORS[COLOR[l.node]]} />
        ))}
      </defs>
      {model.links.map((l) => (
        <Link key={l.node} link={l} layout={layout} arrow={arrowId(l.node)} />
      ))}
      {model.links.map((l) => {
        const key = directionKey(l);
        return key ? <DirectionLabel key={l.node} link={l} layout={layout} text={t(key)} /> : null;
      })}
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
