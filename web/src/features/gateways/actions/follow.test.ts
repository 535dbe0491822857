import { describe, expect, it } from 'vitest';
import type { GatewayRow } from '@/shared/api/gateways';
import type { BatchItem } from './api';
import { BACK_WITHIN_MS, follow, followedIds, settled } from './follow';

const ACCEPTED = 1_800_000_000_000;

const accepted = (sn: string, gatewayId: number): BatchItem => ({
  sn,
  status: 'succeeded',
  success: true,
  code: 0,
  msg: 'restarting',
  commandId: 10 + gatewayId,
  gatewayId,
  acceptedAt: ACCEPTED,
});

const refused: BatchItem = {
  sn: 'GW-OFF',
  status: 'refused',
  success: false,
  code: 602,
  msg: 'Device offline',
  commandId: null,
  gatewayId: null,
  acceptedAt: null,
};

const row = (signedInAt: number | null, online = true) =>
  ({ id: 1, signedInAt, online }) as GatewayRow;

describe('following a restart', () => {
  it('waits until the gateway signs in after it accepted the restart', () => {
    const item = accepted('GW-1', 1);
    expect(follow(item, undefined, 1_000)).toEqual({ state: 'restarting' });
    // a sign-in before the acceptance (its old connection) is not a return
    expect(follow(item, row(ACCEPTED - 60_000), 20_000)).toEqual({ state: 'restarting' });
    expect(follow(item, row(ACCEPTED), 20_000)).toEqual({ state: 'restarting' });
    expect(follow(item, row(ACCEPTED + 31_000), 40_000)).toEqual({
      state: 'back',
      at: ACCEPTED + 31_000,
    });
    // signed in, but gone again before the read: not back
    expect(follow(item, row(ACCEPTED + 31_000, false), 40_000).state).toBe('restarting');
  });

  it('says not back yet after the bound, and back again if it signs in after all', () => {
    const item = accepted('GW-1', 1);
    const old = row(ACCEPTED - 60_000);
    expect(follow(item, old, BACK_WITHIN_MS - 1).state).toBe('restarting');
    expect(follow(item, old, BACK_WITHIN_MS)).toEqual({ state: 'notBack', row: old });
    expect(follow(item, row(ACCEPTED + 400_000), BACK_WITHIN_MS + 100_000).state).toBe('back');
  });

  it('follows nothing that was refused, failed or not answered', () => {
    expect(follow(refused, undefined, 0)).toEqual({ state: 'failed', item: refused });
    const timedOut = { ...refused, status: 'timed_out', gatewayId: 4, commandId: 9 };
    expect(follow(timedOut, row(ACCEPTED + 1), 0).state).toBe('failed');
    expect(followedIds([accepted('GW-1', 1), refused, timedOut, accepted('GW-2', 2)])).toEqual([
      1, 2,
    ]);
  });

  it('is settled once no gateway is still restarting', () => {
    const failed = { state: 'failed', item: refused } as const;
    expect(settled([])).toBe(true);
    expect(settled([failed, { state: 'back', at: 1 }])).toBe(true);
    expect(settled([failed, { state: 'notBack', row: undefined }])).toBe(true);
    expect(settled([{ state: 'back', at: 1 }, { state: 'restarting' }])).toBe(false);
  });
});
