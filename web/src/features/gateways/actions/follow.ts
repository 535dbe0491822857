import type { GatewayRow } from '@/shared/api/gateways';
import type { BatchItem } from './api';

/**
 * How long a restarted gateway has to sign in again before the restart dialog says it is not
 * back yet. A gateway reboots in well under a minute (the demo's in about 30 s); five minutes
 * also covers one that waits out its reconnect back-off.
 */
export const BACK_WITHIN_MS = 5 * 60_000;

/** Where one gateway of a restart stands. */
export type Follow =
  /** The restart was accepted; the gateway has not signed in again since. */
  | { state: 'restarting' }
  /** It signed in again after it accepted the restart, at `at` (ms), and is online. */
  | { state: 'back'; at: number }
  /** It has not signed in again within [BACK_WITHIN_MS]; `row` tells its last message. */
  | { state: 'notBack'; row: GatewayRow | undefined }
  /** No restart to follow: refused, failed or not answered (`item` says why). */
  | { state: 'failed'; item: BatchItem };

/**
 * Where gateway `item` of a restart stands, given its list row now (`row`, undefined until
 * read) and the time since the restart's answer arrived (`elapsedMs`, the browser's clock).
 * A gateway is back once its sign-in time is later than its acceptance of the restart (both
 * the server's times; a message over its old connection is not a return) and it is online.
 */
export function follow(item: BatchItem, row: GatewayRow | undefined, elapsedMs: number): Follow {
  const accepted = item.acceptedAt;
  if (accepted === null || item.gatewayId === null) return { state: 'failed', item };
  const signedIn = row?.signedInAt;
  if (row?.online && signedIn != null && signedIn > accepted)
    return { state: 'back', at: signedIn };
  if (elapsedMs >= BACK_WITHIN_MS) return { state: 'notBack', row };
  return { state: 'restarting' };
}

/** Whether nothing more will change without a new restart (the dialog stops asking). */
export function settled(follows: readonly Follow[]): boolean {
  return follows.every((f) => f.state !== 'restarting');
}

/** The gateways a restart answer leaves to follow: those that accepted it. */
export function followedIds(items: readonly BatchItem[]): number[] {
  return items.flatMap((i) => (i.acceptedAt !== null && i.gatewayId !== null ? [i.gatewayId] : []));
}
