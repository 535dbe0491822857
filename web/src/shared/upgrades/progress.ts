import type { BatchTotals, StartOutcome, Upgrade, UpgradeReason, UpgradeState } from './api';

/** The antd Progress status for an upgrade state. */
export function progressStatus(state: UpgradeState): 'active' | 'success' | 'exception' | 'normal' {
  switch (state) {
    case 'queued':
      return 'normal';
    case 'sending':
    case 'upgrading':
      return 'active';
    case 'successful':
      return 'success';
    case 'failed':
      return 'exception';
    case 'cancelled':
      return 'normal';
  }
}

/** SNs typed one per line or separated by commas, spaces or semicolons; duplicates dropped. */
export function splitSns(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const sn = part.trim();
    if (sn && !out.includes(sn)) out.push(sn);
  }
  return out;
}

/** One row of the progress table: a running or finished upgrade, or a refusal at the start. */
export interface Row {
  sn: string;
  upgrade: Upgrade | null;
  /** Why the start was refused. */
  refusal: string | null;
}

/** The started upgrades as polled, in start order, followed by the refused devices. */
export function rowsOf(results: StartOutcome[], polled: Upgrade[] | undefined): Row[] {
  const bySn = new Map((polled ?? []).map((u) => [u.sn, u]));
  return results.map((r) =>
    r.success
      ? { sn: r.sn, upgrade: bySn.get(r.sn) ?? r.upgrade ?? null, refusal: null }
      : { sn: r.sn, upgrade: null, refusal: r.msg },
  );
}

/** Totals over the whole batch: refusals at the start count as failed; `running` counts the
 * queued ones too (they have not ended). */
export function summary(totals: BatchTotals | undefined, refused: number) {
  const t = totals;
  return {
    total: (t?.total ?? 0) + refused,
    succeeded: t?.successful ?? 0,
    failed: (t?.failed ?? 0) + refused,
    cancelled: t?.cancelled ?? 0,
    queued: t?.queued ?? 0,
    running: t?.running ?? 0,
    progress: t?.progress ?? 0,
    done: (t?.running ?? 1) === 0,
  };
}

/**
 * What the reason column says of a row: why the start was refused, else why an upgrade that
 * failed or was cancelled ended (nothing while it runs or waits). `translate` turns the portal's own reasons into the reader's language;
 * a device's reason is shown as it sent it.
 */
export function reasonOf(row: Row, translate: (reason: UpgradeReason) => string): string {
  if (row.refusal !== null) return row.refusal;
  const u = row.upgrade;
  // While it runs the device's words are its phase ("sending", "upgrading"), not a reason.
  if (!u || (u.state !== 'failed' && u.state !== 'cancelled')) return '';
  return u.reason ? translate(u.reason) : u.message;
}

/** The state label key and its values: a queued upgrade shows its place in its gateway's queue. */
export function stateLabel(u: Upgrade): [string, Record<string, unknown>] {
  if (u.state === 'queued' && u.queuePosition !== null)
    return ['upgrades.queuedAt', { position: u.queuePosition }];
  return [`upgrades.states.${u.state}`, {}];
}
