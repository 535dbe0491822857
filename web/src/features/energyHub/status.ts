import { Limits } from '@/shared/api/limits.gen';
import type { Schemas } from '@/shared/api/schema';
import {
  ENROLLMENT_ACTIONS,
  type DrEvent,
  type EnrollmentAction,
  type EnrollmentStatus,
  type EventStatus,
} from './types';

/** The tag colour of an enrollment's status. */
export function enrollmentColor(status: EnrollmentStatus | string): string {
  switch (status) {
    case 'pending':
      return 'gold';
    case 'accepted':
      return 'green';
    case 'rejected':
      return 'red';
    default:
      return 'default';
  }
}

/** The badge of an event's status: running now, waiting, over or called off. */
export function eventBadge(
  status: EventStatus | string,
): 'processing' | 'warning' | 'success' | 'default' {
  switch (status) {
    case 'active':
      return 'processing';
    case 'pending':
      return 'warning';
    case 'completed':
      return 'success';
    default:
      return 'default';
  }
}

type DispatchState = Schemas['DispatchState'];

const UTILITY: readonly EnrollmentAction[] = ['accept', 'reject'];

const isAction = (a: string): a is EnrollmentAction =>
  (ENROLLMENT_ACTIONS as readonly string[]).includes(a);

/**
 * The actions the server allows, split into the participant's and the utility's, in a fixed
 * order (join, resubmit, opt in/out, quit; accept, reject); names the screen does not know are
 * left out.
 */
export function splitActions(allowed: readonly string[]): {
  participant: EnrollmentAction[];
  utility: EnrollmentAction[];
} {
  const known = ENROLLMENT_ACTIONS.filter((a) => allowed.some((x) => isAction(x) && x === a));
  const order: EnrollmentAction[] = ['join', 'resubmit', 'optIn', 'optOut', 'quit'];
  return {
    participant: order.filter((a) => known.includes(a)),
    utility: UTILITY.filter((a) => known.includes(a)),
  };
}

/** Actions that ask before they run (leaving, sitting events out, refusing). */
export function asksFirst(action: EnrollmentAction): boolean {
  return action === 'quit' || action === 'optOut';
}

/** The utility's refusal needs a reason (1-200 characters). */
export function needsReason(action: EnrollmentAction): boolean {
  return action === 'reject';
}

export const REASON_MAX = Limits.ActionRequest.reason.maxLength;

/** Whether a reason may be sent: 1-200 characters once trimmed. */
export function validReason(reason: string): boolean {
  const n = reason.trim().length;
  return n >= 1 && n <= REASON_MAX;
}

/** Devices may change while the enrollment is live or can be resubmitted. */
export function devicesEditable(status: EnrollmentStatus): boolean {
  return status !== 'unenrolled';
}

/** Contact, accounts and addresses are edited while pending or after a refusal. */
export function formEditable(status: EnrollmentStatus): boolean {
  return status === 'pending' || status === 'rejected';
}

/**
 * What a cancel does for this caller: the utility cancels its own (built-in) event for
 * everyone; it cannot cancel a VTN's event, so it opts every plant out; a participant opts
 * their own plants out.
 */
export type CancelMeaning = 'cancelAll' | 'optOutAll' | 'optOutMine';

export function cancelMeaning(event: Pick<DrEvent, 'source'>, utility: boolean): CancelMeaning {
  if (!utility) return 'optOutMine';
  return event.source === 'vtn' ? 'optOutAll' : 'cancelAll';
}

/** An event can still be cancelled (or sat out) until it is over, unless already sat out. */
export function cancellable(event: Pick<DrEvent, 'status' | 'optedOut'>): boolean {
  return (event.status === 'pending' || event.status === 'active') && !event.optedOut;
}

/** A plant's dispatch in an event: applied (or put back), refused or unreachable, under way. */
export function dispatchBadge(state: DispatchState): 'success' | 'error' | 'processing' {
  switch (state) {
    case 'applied':
    case 'restored':
      return 'success';
    case 'failed':
    case 'offline':
      return 'error';
    default:
      return 'processing';
  }
}
