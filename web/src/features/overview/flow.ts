import type { FlowData } from './api';

/** The nodes around the inverter in the flow diagram. */
export type FlowNode = 'pv' | 'battery' | 'grid' | 'load' | 'generator';

/** One line of the diagram between a node and the inverter (the hub). */
export interface FlowLink {
  node: FlowNode;
  /** W, as a magnitude. */
  power: number;
  /** Which way energy moves on the line; `idle` draws it without animation. */
  direction: 'toHub' | 'fromHub' | 'idle';
}

export interface FlowModel {
  links: FlowLink[];
  /** Battery state of charge, %; null without a battery. */
  soc: number | null;
  /** Plant-local time of the newest reading, or null when the plant never reported. */
  time: string | null;
}

/**
 * The diagram of a flow answer: PV and the generator only feed the hub, the load only takes,
 * the battery and the grid go either way by their flags. Nodes the plant does not have are
 * left out (no battery on a grid-tied plant without one, no generator unless one exists).
 */
export function flowModel(f: FlowData, storage = false): FlowModel {
  const reported = f.existsBattery ?? (f.toBat || f.batTo || f.soc > 0);
  // A storage plant always has its battery node; a grid-tied one only when a battery reports.
  const hasBattery = storage || reported;
  const two = (into: boolean, out: boolean): FlowLink['direction'] =>
    into ? 'toHub' : out ? 'fromHub' : 'idle';
  const links: FlowLink[] = [
    { node: 'pv', power: f.pvPower, direction: f.pvTo ? 'toHub' : 'idle' },
  ];
  if (hasBattery) {
    links.push({ node: 'battery', power: f.battPower, direction: two(f.batTo, f.toBat) });
  }
  if (f.existsGrid || f.gridTo || f.toGrid) {
    links.push({ node: 'grid', power: f.gridOrMeterPower, direction: two(f.gridTo, f.toGrid) });
  }
  links.push({ node: 'load', power: f.loadOrEpsPower, direction: f.toLoad ? 'fromHub' : 'idle' });
  if (f.existsGen) {
    links.push({ node: 'generator', power: f.genPower, direction: f.genTo ? 'toHub' : 'idle' });
  }
  return { links, soc: hasBattery && reported ? f.soc : null, time: f.time };
}
