import { api } from '@/shared/api/client';
import { queryOptions } from '@tanstack/react-query';
import { upgradeKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { COMMAND_REFUSALS, ErrorCode } from '@/shared/http';

export type UpgradeTarget = 'inverter' | 'gateway';
export type UpgradeState = Schemas['UpgradeState'];

/** A firmware file offered for a device type (GET /api/v1/firmware). */
export type Firmware = Schemas['FirmwareItem'];

/** Why the portal ended an upgrade (its gateway went offline, no progress, timed out). */
export type UpgradeReason = Schemas['UpgradeReason'];

/** One device's upgrade as the server keeps it. */
export type Upgrade = Schemas['Upgrade'];

/** One device's answer when a batch starts: its upgrade, or why it was refused. */
export type StartOutcome = Schemas['UpgradeOutcome'];

export type BatchStart = Schemas['UpgradeBatch'];

export type BatchTotals = Schemas['UpgradeTotals'];

export type BatchProgress = Schemas['UpgradeBatchProgress'];

/** The firmware enabled for the device `sn` (its type decides), or for gateways. */
export const firmwareQuery = (target: UpgradeTarget, sn: string) =>
  queryOptions({
    queryKey: upgradeKeys.firmware(target, target === 'gateway' ? '' : sn),
    queryFn: async () => {
      const params = target === 'gateway' ? { target: 'gateway' } : { sn };
      const page = await api.get('/api/v1/firmware', { query: params });
      return page.infos;
    },
    enabled: target === 'gateway' || sn.length > 0,
  });

/**
 * Starts upgrades; a single inverter or gateway uses its own route, several the batch one. A
 * device already on that version or a newer one answers 4001 (a warning: the single route
 * rejects with it, the batch marks its row); `force` upgrades it anyway. Devices behind a
 * gateway that is busy with another upgrade come back `queued`.
 */
export async function startUpgrades(
  target: UpgradeTarget,
  sns: string[],
  firmId: number,
  force = false,
): Promise<BatchStart> {
  const forced = force ? { force: true } : {};
  const [only] = sns;
  if (sns.length === 1 && only !== undefined) {
    const u =
      target === 'gateway'
        ? await api.post('/api/v1/gateway/{id}/upgrade', {
            body: {},
            path: { id: only },
            query: { firmId, ...forced },
            handledCodes: [...COMMAND_REFUSALS, ErrorCode.FirmwareCurrent],
          })
        : await api.post('/api/v1/inverter/{sn}/upgrade', {
            body: {},
            path: { sn: only },
            query: { firmId, ...forced },
            handledCodes: [...COMMAND_REFUSALS, ErrorCode.FirmwareCurrent],
          });
    return {
      batchId: u.batchId,
      total: 1,
      sent: 1,
      refused: 0,
      results: [{ sn: u.sn, success: true, code: 0, msg: '', upgrade: u }],
    };
  }
  return target === 'gateway'
    ? api.post('/api/v1/batch/upgrade', {
        body: { ids: sns, firmId },
        query: forced,
        handledCodes: [ErrorCode.InvalidParameter],
      })
    : api.post('/api/v1/inverter/batchUpgrade', {
        body: { sns, firmId },
        query: forced,
        handledCodes: [ErrorCode.InvalidParameter],
      });
}

/** A batch's progress, polled every second while anything runs or waits in a queue. */
export const batchQuery = (batchId: string | null) =>
  queryOptions({
    queryKey: upgradeKeys.batch(batchId),
    queryFn: () => api.get('/api/v1/upgrade/batch/{id}', { path: { id: batchId ?? '' } }),
    enabled: batchId !== null,
    refetchInterval: (query) => {
      const data = query.state.data;
      return !data || data.totals.running > 0 ? 1000 : false;
    },
  });

/** Takes an inverter's or a gateway's queued upgrade out of its gateway's queue, or asks the
 * device to stop its running upgrade (608 where the device cannot). */
export function cancelUpgrade(target: UpgradeTarget, sn: string): Promise<unknown> {
  const handledCodes = [
    ErrorCode.InvalidParameter,
    ErrorCode.DeviceOffline,
    ErrorCode.ConnectionFailed,
    ErrorCode.CancelUnsupported,
  ];
  return target === 'gateway'
    ? api.post('/api/v1/gateway/{id}/cutUpgrade', {
        body: {},
        path: { id: sn },
        handledCodes: [...handledCodes, ErrorCode.GatewayMissing],
      })
    : api.post('/api/v1/inverter/{sn}/cutUpgrade', {
        body: {},
        path: { sn },
        handledCodes: [...handledCodes, ErrorCode.InverterMissing],
      });
}
