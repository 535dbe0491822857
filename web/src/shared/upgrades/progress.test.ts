import { describe, expect, it } from 'vitest';
import type { StartOutcome, Upgrade } from './api';
import { progressStatus, reasonOf, rowsOf, splitSns, stateLabel, summary } from './progress';

const upgrade = (sn: string, state: Upgrade['state'], progress: number): Upgrade => ({
  id: 1,
  batchId: 'b',
  sn,
  target: 'inverter',
  firmId: 1,
  version: 'V2',
  fromVersion: 'V1',
  commandId: state === 'queued' ? null : 1,
  state,
  queuePosition: null,
  progress,
  message: '',
  cancellable: false,
  startTime: '2026-01-01T00:00:00.000+00:00',
  finishTime: null,
  updateAt: '2026-01-01T00:00:00Z',
  reason: null,
});

describe('upgrade progress', () => {
  it('splits typed SNs on any separator and drops duplicates', () => {
    expect(splitSns(' A1,A2;A1\nA3  ')).toEqual(['A1', 'A2', 'A3']);
    expect(splitSns('   ')).toEqual([]);
  });

  it('maps states to bar styles', () => {
    expect(progressStatus('sending')).toBe('active');
    expect(progressStatus('successful')).toBe('success');
    expect(progressStatus('failed')).toBe('exception');
    expect(progressStatus('cancelled')).toBe('normal');
    expect(progressStatus('queued')).toBe('normal');
  });

  it("labels a queued upgrade with its place in its gateway's queue", () => {
    expect(stateLabel({ ...upgrade('A', 'queued', 0), queuePosition: 3 })).toEqual([
      'upgrades.queuedAt',
      { position: 3 },
    ]);
    expect(stateLabel(upgrade('B', 'queued', 0))).toEqual(['upgrades.states.queued', {}]);
    expect(stateLabel(upgrade('C', 'upgrading', 50))).toEqual(['upgrades.states.upgrading', {}]);
  });

  it('shows polled upgrades over the started ones and keeps refusals with their reason', () => {
    const results: StartOutcome[] = [
      { sn: 'A', success: true, code: 0, msg: '', upgrade: upgrade('A', 'sending', 0) },
      { sn: 'B', success: false, code: 602, msg: 'Device offline', upgrade: null },
    ];
    const rows = rowsOf(results, [upgrade('A', 'upgrading', 60)]);
    expect(rows[0]?.upgrade?.progress).toBe(60);
    expect(rows[1]).toEqual({ sn: 'B', upgrade: null, refusal: 'Device offline' });
    expect(rowsOf(results, undefined)[0]?.upgrade?.state).toBe('sending');
  });

  it('counts refusals as failures in the totals and is done when nothing runs', () => {
    const s = summary(
      {
        total: 2,
        queued: 0,
        sending: 0,
        upgrading: 0,
        successful: 1,
        failed: 1,
        cancelled: 0,
        running: 0,
        progress: 68,
      },
      1,
    );
    expect(s).toMatchObject({ total: 3, succeeded: 1, failed: 2, done: true });
    expect(summary(undefined, 0).done).toBe(false);
    const waiting = summary(
      {
        total: 3,
        queued: 2,
        sending: 1,
        upgrading: 0,
        successful: 0,
        failed: 0,
        cancelled: 0,
        running: 3,
        progress: 0,
      },
      0,
    );
    expect(waiting).toMatchObject({ queued: 2, running: 3, done: false });
  });

  it("says why an upgrade ended: the portal's reasons translated, the device's as sent", () => {
    const say = (r: string) => `[${r}]`;
    const failed = {
      ...upgrade('A', 'failed', 40),
      message: 'gateway offline: the upgrade stopped',
    };
    expect(
      reasonOf({ sn: 'A', upgrade: { ...failed, reason: 'gatewayOffline' }, refusal: null }, say),
    ).toBe('[gatewayOffline]');
    const device = { ...upgrade('B', 'failed', 37), message: 'firmware checksum mismatch' };
    expect(reasonOf({ sn: 'B', upgrade: device, refusal: null }, say)).toBe(
      'firmware checksum mismatch',
    );
    expect(
      reasonOf({ sn: 'C', upgrade: upgrade('C', 'successful', 100), refusal: null }, say),
    ).toBe('');
    expect(reasonOf({ sn: 'D', upgrade: null, refusal: 'Device offline' }, say)).toBe(
      'Device offline',
    );
    const running = { ...upgrade('E', 'upgrading', 50), message: 'upgrading' };
    expect(reasonOf({ sn: 'E', upgrade: running, refusal: null }, say)).toBe('');
    expect(reasonOf({ sn: 'F', upgrade: upgrade('F', 'queued', 0), refusal: null }, say)).toBe('');
  });
});
