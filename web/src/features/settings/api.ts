import { queryOptions } from '@tanstack/react-query';
import { http } from '@/shared/http';

export type Group = 'workMode' | 'battery' | 'grid' | 'timeOfUse' | 'generator' | 'limits';

/** A field of GET /api/v1/inverter/setting/{sn}/support (domain::settings::Field). */
export type Field = {
  key: string;
  group: Group;
  unit: string;
  default: string;
  selectable: boolean;
} & (
  | { type: 'number'; min: number; max: number; decimals: number }
  | { type: 'choice'; choices: string[] }
  | { type: 'time' }
  | { type: 'bool' }
);

export interface Support {
  support: boolean;
  sn: string;
  family: 'hybrid_lv' | 'hybrid_hv' | 'grid_tied';
  editable: boolean;
  groups: { key: Group; fields: Field[] }[];
}

/** Every value a string (docs/api-conventions.md). */
export type Values = Record<string, string>;

/** GET /api/v1/command/{id}. */
export interface CommandStatus {
  id: number;
  kind: string;
  deviceSn: string;
  gatewaySn: string;
  status: 'sent' | 'acknowledged' | 'succeeded' | 'failed' | 'timed_out';
  resultCode: number | null;
  message: string;
  createAt: string;
  updateAt: string;
}

export interface Profile {
  id: number;
  name: string;
  params: Values;
  createAt: string;
  updateAt: string;
}

/** Codes the settings screen explains itself (docs/api-conventions.md). */
export const SETTING_CODES = [2, 4, 600, 601, 602, 603, 604, 605, 606];

export const settingKeys = {
  support: (sn: string) => ['settings', 'support', sn] as const,
  read: (sn: string) => ['settings', 'read', sn] as const,
  profiles: ['settings', 'profiles'] as const,
  params: (sn: string) => ['settings', 'params', sn] as const,
};

const path = (sn: string) => encodeURIComponent(sn.trim());

export const supportQuery = (sn: string) =>
  queryOptions({
    queryKey: settingKeys.support(sn),
    queryFn: () =>
      http.get<Support>(`/api/v1/inverter/setting/${path(sn)}/support`, {
        handledCodes: SETTING_CODES,
      }),
    enabled: sn.trim() !== '',
    retry: false,
  });

export const readQuery = (sn: string, enabled: boolean) =>
  queryOptions({
    queryKey: settingKeys.read(sn),
    queryFn: () =>
      http.get<Values>(`/api/v1/common/setting/${path(sn)}/read`, { handledCodes: SETTING_CODES }),
    enabled,
    retry: false,
  });

/** The device's status codes (docs/overview.md) that stop a setting from reaching it. */
export const OFFLINE = 0;
export const UPGRADING = 4;

/** What the inverter detail (GET /api/v1/inverter/{sn}) says about the device's state. */
export interface DeviceState {
  sn: string;
  status: number;
  updateAt: string | null;
}

/** The inverter's status, followed while the settings are open (banner when offline). */
export const deviceStateQuery = (sn: string) =>
  queryOptions({
    queryKey: ['settings', 'state', sn] as const,
    queryFn: () =>
      http.get<DeviceState>(`/api/v1/inverter/${path(sn)}`, { silent: true, handledCodes: [600] }),
    enabled: sn.trim() !== '',
    refetchInterval: 15_000,
  });

export interface SetAnswer {
  commandId: number | null;
  changed: string[];
}

/** Writes the whole set back (the server sends only what changed). */
export function writeSettings(sn: string, values: Values): Promise<SetAnswer> {
  return http.post<SetAnswer>(`/api/v1/common/setting/${path(sn)}/set`, values, {
    handledCodes: SETTING_CODES,
  });
}

export function isOpen(status: CommandStatus['status']): boolean {
  return status === 'sent' || status === 'acknowledged';
}

/** A command's status, polled every second until it is final. */
export const commandQuery = (id: number | null) =>
  queryOptions({
    queryKey: ['command', id],
    queryFn: () => http.get<CommandStatus>(`/api/v1/command/${id}`),
    enabled: id !== null,
    refetchInterval: (query) => {
      const data = query.state.data;
      return !data || isOpen(data.status) ? 1000 : false;
    },
  });

export const profilesQuery = queryOptions({
  queryKey: settingKeys.profiles,
  queryFn: () => http.get<Profile[]>('/api/v1/inverter/params/custom'),
});

export interface Selectable {
  family: Support['family'];
  maxParams: number;
  maxProfiles: number;
  infos: Field[];
}

export const selectableQuery = (sn: string) =>
  queryOptions({
    queryKey: settingKeys.params(sn),
    queryFn: () => http.get<Selectable>('/api/v1/inverter/params', { params: { sn } }),
  });

export function saveProfile(body: { id?: number; name: string; params: Values }): Promise<Profile> {
  return http.post<Profile>('/api/v1/inverter/params/custom', body);
}

export function deleteProfile(id: number): Promise<null> {
  return http.post<null>('/api/v1/inverter/params/custom', { id, delete: true });
}

/** Power commands (GET, as the original API has them). */
export function power(sn: string, on: boolean): Promise<CommandStatus> {
  return http.get<CommandStatus>(`/api/v1/inverter/${path(sn)}/${on ? 'boot' : 'shutdown'}`, {
    handledCodes: SETTING_CODES,
  });
}
