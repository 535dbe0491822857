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
  /** No fresh data: the diagram is greyed and nothing moves. */
  stale: boolean;
}

/**
 * The diagram of a flow answer: PV and the generator only feed the hub, the load only takes,
 * the battery and the grid go either way by their flags. Nodes the plant does not have are
 * left out: the battery when the server says there is none (a grid-tied inverter's battery
 * registers are no battery) unless the plant is a storage plant, the generator unless one
 * exists. A stale flow draws every line idle.
 */
export function flowModel(f: FlowData, storage = false): FlowModel {
  const stale = f.stale ?? false;
  const reported = f.existsBattery ?? (f.toBat || f.batTo || f.soc > 0);
  const hasBattery = storage || reported;
  const two = (into: boolean, out: boolean): FlowLink['direction'] =>
    stale ? 'idle' : into ? 'toHub' : out ? 'fromHub' : 'idle';
  const one = (on: boolean, direction: FlowLink['direction']): FlowLink['direction'] =>
    on && !stale ? direction : 'idle';
  const links: FlowLink[] = [{ node: 'pv', power: f.pvPower, direction: one(f.pvTo, 'toHub') }];
  if (hasBattery) {
    links.push({ node: 'battery', power: f.battPower, direction: two(f.batTo, f.toBat) });
  }
  if (f.existsGrid || f.gridTo || f.toGrid) {
    links.push({ node: 'grid', power: f.gridOrMeterPower, direction: two(f.gridTo, f.toGrid) });
  }
  links.push({ node: 'load', power: f.loadOrEpsPower, direction: one(f.toLoad, 'fromHub') });
  if (f.existsGen) {
    links.push({ node: 'generator', power: f.genPower, direction: one(f.genTo, 'toHub') });
  }
  return { links, soc: hasBattery && reported ? f.soc : null, time: f.time, stale };
}
