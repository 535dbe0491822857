import { api } from '@/shared/api/client';
import { queryOptions } from '@tanstack/react-query';
import { gatewayKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import type { Command } from '@/shared/commands/api';
import { ErrorCode } from '@/shared/http';
import { LIVE_QUERY } from '@/shared/api/live';

/** One gateway of a batch answer (restart, batch check). */
export type BatchItem = Schemas['GatewayOutcome'];

/** What a restart did: how many succeeded and failed, each gateway's outcome. */
export type BatchResult = Schemas['Envelope_BatchOutcome_GatewayOutcome']['data'];

/** What the check before a restart found: nothing is done yet, so how many are ready and how
 * many would be refused, with each one's reason. */
export type CheckResult = Schemas['GatewayCheck'];

/** A protocol config (GET /api/v1/logger/functions). */
export type ProtocolItem = Schemas['LoggerFunction'];

/** Refusals shown in the dialogs rather than as toasts. */
const HANDLED: readonly ErrorCode[] = [
  ErrorCode.NoPermission,
  ErrorCode.InvalidParameter,
  ErrorCode.GatewayKeyWrong,
  ErrorCode.GatewayUsed,
  ErrorCode.GatewayMissing,
  ErrorCode.DeviceOffline,
  ErrorCode.DeviceUpgrading,
  ErrorCode.ConnectionFailed,
];

/** SNs typed by a person: separated by commas, spaces or lines; repeats dropped. */
export function splitSns(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

export function batchCheck(sns: string[], action: 'restart' | 'upgrade'): Promise<CheckResult> {
  return api.post('/api/v1/gateways/batch/check', { body: { sns, action } });
}

/** Restarts gateways; one goes through /gateway/{sn}/restart, several through /batch/restart. */
export function restartGateways(sns: string[]): Promise<BatchResult> {
  if (sns.length === 1) {
    return api.post('/api/v1/gateway/{gsns}/restart', { path: { gsns: sns[0] ?? '' } });
  }
  return api.post('/api/v1/batch/restart', { body: { sns } });
}

export function replaceGateway(oldSn: string, newSn: string, key: string) {
  return api.post('/api/v1/gateway/replace', {
    body: { oldSn, newSn: newSn.trim(), key: key.trim() },
    handledCodes: HANDLED,
  });
}

export function updateProtocol(sn: string, protocol: string) {
  return api.post('/api/v1/gateway/updateGatewayProtocol', {
    body: { sn, protocol },
    handledCodes: HANDLED,
  });
}

export function settingsSwitch(sn: string, enable: boolean): Promise<Command> {
  return api.post('/api/v1/gateway/{sn}/settings/switch', {
    path: { sn },
    body: { enable },
    handledCodes: HANDLED,
  });
}

/**
 * The gateways a restart follows (their sign-in and last message times), read at the live
 * interval while they are followed; the caller stops it once every one is settled.
 */
export const followQuery = (ids: readonly number[]) => {
  const query = { ids: ids.join(','), page: 1, limit: 100 };
  return queryOptions({
    queryKey: gatewayKeys.list(query),
    queryFn: () => api.get('/api/v1/gateways', { query, silent: true }),
    ...LIVE_QUERY,
  });
};

/** The protocol configs (administrators); others type the code. */
export const protocolsQuery = queryOptions({
  queryKey: gatewayKeys.protocols,
  queryFn: () => api.get('/api/v1/logger/functions', { silent: true }),
  retry: false,
  staleTime: 5 * 60_000,
});

/** The upload cycles a gateway may be given, in seconds (the server checks the same). */
export const UPLOAD_CYCLE = { min: 10, max: 3600 } as const;

/** Whether `value` is a cycle the server takes: whole seconds from 10 to 3600. */
export function validCycle(value: number | null | undefined): value is number {
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= UPLOAD_CYCLE.min &&
    value <= UPLOAD_CYCLE.max
  );
}

/** Sends the gateway its new upload cycle; the command once the gateway answered. */
export function setUploadCycle(sn: string, seconds: number): Promise<Command> {
  return api.post('/api/v1/gateway/{sn}/uploadCycle', {
    path: { sn },
    body: { uploadCycle: seconds },
    handledCodes: HANDLED,
  });
}
