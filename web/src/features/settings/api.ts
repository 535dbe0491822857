import { api } from '@/shared/api/client';
import { queryOptions } from '@tanstack/react-query';
import { settingKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode } from '@/shared/http';

export type Group = Schemas['SettingGroup'];

/** A field of GET /api/v1/inverter/setting/{sn}/support (domain::settings::Field). */
export type Field = Schemas['SettingField'];

export type Support = Schemas['SettingSupport'];

/** Every value a string (docs/api-conventions.md). */
export type Values = Schemas['SettingValues'];

export type Profile = Schemas['SettingProfile'];

/** Codes the settings screen explains itself (docs/api.md, "Parameter settings"). */
export const SETTING_CODES: readonly ErrorCode[] = [
  ErrorCode.NoPermission,
  ErrorCode.InvalidParameter,
  ErrorCode.InverterMissing,
  ErrorCode.BrandNotSupported,
  ErrorCode.DeviceOffline,
  ErrorCode.DeviceUpgrading,
  ErrorCode.StateForbids,
  ErrorCode.NoSettings,
  ErrorCode.ConnectionFailed,
];

const path = (sn: string) => encodeURIComponent(sn.trim());

export const supportQuery = (sn: string) =>
  queryOptions({
    queryKey: settingKeys.support(sn),
    queryFn: () =>
      api.get('/api/v1/inverter/setting/{sn}/support', {
        path: { sn: path(sn) },
        handledCodes: SETTING_CODES,
      }),
    enabled: sn.trim() !== '',
    retry: false,
  });

export const readQuery = (sn: string, enabled: boolean) =>
  queryOptions({
    queryKey: settingKeys.read(sn),
    queryFn: () =>
      api.get('/api/v1/common/setting/{sn}/read', {
        path: { sn: path(sn) },
        handledCodes: SETTING_CODES,
      }),
    enabled,
    retry: false,
  });

/** What the inverter detail (GET /api/v1/inverter/{sn}) says about the device's state. */
export interface DeviceState {
  sn: string;
  status: number;
  updateAt: string | null;
}

/** The inverter's status, followed while the settings are open (banner when offline). */
export const deviceStateQuery = (sn: string) =>
  queryOptions({
    queryKey: settingKeys.state(sn),
    queryFn: () =>
      api.get('/api/v1/inverter/{sn}', {
        path: { sn: path(sn) },
        silent: true,
        handledCodes: [ErrorCode.InverterMissing],
      }),
    enabled: sn.trim() !== '',
    refetchInterval: 15_000,
  });

export type SetAnswer = Schemas['SettingWrite'];

/** Writes the whole set back (the server sends only what changed). */
export function writeSettings(sn: string, values: Values): Promise<SetAnswer> {
  return api.post('/api/v1/common/setting/{sn}/set', {
    path: { sn: path(sn) },
    body: values,
    handledCodes: SETTING_CODES,
  });
}

export const profilesQuery = queryOptions({
  queryKey: settingKeys.profiles,
  queryFn: () => api.get('/api/v1/inverter/params/custom'),
});

export type Selectable = Schemas['SelectableParams'];

export const selectableQuery = (sn: string) =>
  queryOptions({
    queryKey: settingKeys.params(sn),
    queryFn: () => api.get('/api/v1/inverter/params', { query: { sn } }),
  });

/** Saves a profile; the answer is the profile (null only answers a delete). */
export function saveProfile(body: {
  id?: number;
  name: string;
  params: Values;
}): Promise<Profile | null> {
  return api.post('/api/v1/inverter/params/custom', { body });
}

export function deleteProfile(id: number): Promise<unknown> {
  return api.post('/api/v1/inverter/params/custom', { body: { id, delete: true } });
}
