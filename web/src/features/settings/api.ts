import { queryOptions } from '@tanstack/react-query';
import { settingKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode, http } from '@/shared/http';

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
      http.get<DeviceState>(`/api/v1/inverter/${path(sn)}`, {
        silent: true,
        handledCodes: [ErrorCode.InverterMissing],
      }),
    enabled: sn.trim() !== '',
    refetchInterval: 15_000,
  });

export type SetAnswer = Schemas['SettingWrite'];

/** Writes the whole set back (the server sends only what changed). */
export function writeSettings(sn: string, values: Values): Promise<SetAnswer> {
  return http.post<SetAnswer>(`/api/v1/common/setting/${path(sn)}/set`, values, {
    handledCodes: SETTING_CODES,
  });
}

export const profilesQuery = queryOptions({
  queryKey: settingKeys.profiles,
  queryFn: () => http.get<Profile[]>('/api/v1/inverter/params/custom'),
});

export type Selectable = Schemas['SelectableParams'];

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
