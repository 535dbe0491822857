/**
 * The TanStack Query keys of every resource, in one place so that a change made on one screen
 * can refresh what another screen shows (a gateway restarted from its own page refreshes the
 * plant's gateway list). Keys are hierarchical: invalidating a prefix (`plantKeys.all`)
 * refreshes everything under it. List keys carry the request's query parameters.
 */

/** Query parameters of a list request, as sent (the operation's query type). */
type Params = Readonly<object>;

export const userKeys = {
  all: ['user'] as const,
  personalized: ['user', 'personalized'] as const,
  notify: ['user', 'notify'] as const,
  webhooks: ['user', 'webhooks'] as const,
  webhookLog: (id: number, page: number) => ['user', 'webhooks', id, 'log', page] as const,
};

export const permissionKeys = {
  tree: (lan: string) => ['permissions', lan] as const,
};

export const configKeys = {
  all: ['config'] as const,
};

export const dictKeys = {
  one: (name: string, lan: string) => ['dict', name, lan] as const,
};

export const versionKeys = {
  timeline: ['version', 'timeline'] as const,
};

export const plantKeys = {
  all: ['plants'] as const,
  list: (params: Params) => ['plants', 'list', params] as const,
  map: (params: Params) => ['plants', 'map', params] as const,
  filter: ['plants', 'filter'] as const,
  offers: ['plants', 'offers'] as const,
  /** The plants a device list's plant filter offers. */
  options: ['plants', 'options'] as const,
  detail: (id: number) => ['plants', 'detail', id] as const,
  shares: (id: number) => ['plants', 'shares', id] as const,
  /** Every plant's gateway views. */
  allGateways: ['plants', 'gateways'] as const,
  /** A plant's gateway views: its gateway list and the devices behind each gateway. */
  gateways: (id: number) => ['plants', 'gateways', id] as const,
  gatewayList: (id: number) => ['plants', 'gateways', id, 'list'] as const,
  gatewayDevices: (id: number, gatewayId: number) =>
    ['plants', 'gateways', id, 'devices', gatewayId] as const,
};

/** The fleet dashboard, per filter and period. */
export const fleetKeys = {
  all: ['fleet'] as const,
  summary: (params: Params) => ['fleet', 'summary', params] as const,
};

/** A plant's overview; each part first, so one part of every plant can be refreshed at once. */
export const overviewKeys = {
  plant: (id: number) => ['overview', 'plant', id] as const,
  realtime: (id: number) => ['overview', 'realtime', id] as const,
  flow: (id: number) => ['overview', 'flow', id] as const,
  use: (id: number) => ['overview', 'use', id] as const,
  energy: (id: number, period: string, date: string) =>
    ['overview', 'energy', id, period, date] as const,
  /** Every plant's device card. */
  allDevices: ['overview', 'devices'] as const,
  devices: (id: number) => ['overview', 'devices', id] as const,
  events: (id: number) => ['overview', 'events', id] as const,
  weather: (id: number, date: string) => ['overview', 'weather', id, date] as const,
  /** The plant figures of a day, month or year (`date` YYYY-MM-DD, YYYY-MM or YYYY). */
  figures: (id: number, date: string) => ['overview', 'figures', id, date] as const,
};

export const gatewayKeys = {
  all: ['gateways'] as const,
  list: (params: Params) => ['gateways', 'list', params] as const,
  counts: ['gateways', 'count'] as const,
  details: ['gateways', 'detail'] as const,
  /** By id or SN, as the detail route has it. */
  detail: (id: string) => ['gateways', 'detail', id] as const,
  protocols: ['gateways', 'protocols'] as const,
};

/** The keys of one kind of device (`root`: its DeviceKind's queryRoot). */
export function deviceKeys(root: string) {
  return {
    all: [root] as const,
    list: (params: Params) => [root, 'list', params] as const,
    counts: [root, 'counts'] as const,
    realtime: (sn: string) => [root, 'one', sn, 'realtime'] as const,
    series: (sn: string, span: string, date: string) => [root, 'one', sn, span, date] as const,
  };
}

export type DeviceKeys = ReturnType<typeof deviceKeys>;

export const batteryKeys = {
  ...deviceKeys('batteries'),
  info: (sn: string) => ['batteries', 'one', sn, 'info'] as const,
  slaves: (sn: string) => ['batteries', 'one', sn, 'slaves'] as const,
};
export const meterKeys = deviceKeys('meters');
export const weatherKeys = deviceKeys('weatherStations');
export const combinerKeys = deviceKeys('combiners');

export const inverterKeys = {
  all: ['inverters'] as const,
  list: (params: Params) => ['inverters', 'list', params] as const,
  counts: ['inverters', 'counts'] as const,
  detail: (sn: string) => ['inverters', 'detail', sn] as const,
  realtime: (port: string, sn: string) => ['inverters', 'realtime', port, sn] as const,
  series: (port: string, span: string, sn: string, date: string) =>
    ['inverters', 'series', port, span, sn, date] as const,
};

/** Events and messages come translated by the server: the language is part of their keys. */
export const eventKeys = {
  list: (lan: string, params: Params) => ['events', 'list', lan, params] as const,
  detail: (lan: string, id: number) => ['events', 'detail', lan, id] as const,
  plants: (name: string) => ['events', 'plants', name] as const,
};

export const messageKeys = {
  all: ['messages'] as const,
  count: ['messages', 'count'] as const,
  list: (lan: string) => ['messages', 'list', lan] as const,
};

export const commandKeys = {
  one: (id: number | null) => ['command', id] as const,
};

export const debugKeys = {
  reply: (commandId: number | null) => ['debug', 'reply', commandId] as const,
  log: (params: Params) => ['debug', 'log', params] as const,
};

export const auditKeys = {
  list: (params: Params) => ['audit', params] as const,
};

export const upgradeKeys = {
  firmware: (target: string, sn: string) => ['upgrades', 'firmware', target, sn] as const,
  batch: (batchId: string | null) => ['upgrades', 'batch', batchId] as const,
};

export const settingKeys = {
  support: (sn: string) => ['settings', 'support', sn] as const,
  read: (sn: string) => ['settings', 'read', sn] as const,
  state: (sn: string) => ['settings', 'state', sn] as const,
  profiles: ['settings', 'profiles'] as const,
  params: (sn: string) => ['settings', 'params', sn] as const,
};
