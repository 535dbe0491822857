import { describe, expect, it } from 'vitest';
import {
  cancelMeaning,
  cancellable,
  enrollmentColor,
  eventBadge,
  splitActions,
  validReason,
} from './status';

describe('enrollment actions', () => {
  it('splits the allowed actions into the participant and the utility, in a fixed order', () => {
    expect(splitActions(['reject', 'quit', 'optOut', 'accept'])).toEqual({
      participant: ['optOut', 'quit'],
      utility: ['accept', 'reject'],
    });
  });

  it('leaves out actions the screen does not know', () => {
    expect(splitActions(['join', 'teleport'])).toEqual({ participant: ['join'], utility: [] });
  });

  it('accepts a reason of 1 to 200 characters once trimmed', () => {
    expect(validReason('  ')).toBe(false);
    expect(validReason('wrong meter')).toBe(true);
    expect(validReason('x'.repeat(200))).toBe(true);
    expect(validReason('x'.repeat(201))).toBe(false);
  });
});

describe('status colours', () => {
  it('gives each enrollment status its colour and unknown ones the default', () => {
    expect(enrollmentColor('accepted')).toBe('green');
    expect(enrollmentColor('rejected')).toBe('red');
    expect(enrollmentColor('pending')).toBe('gold');
    expect(enrollmentColor('whatever')).toBe('default');
  });

  it('shows a running event as processing and a cancelled one as default', () => {
    expect(eventBadge('active')).toBe('processing');
    expect(eventBadge('cancelled')).toBe('default');
  });
});

describe('cancelling an event', () => {
  it('means cancelling for everyone for the utility on its own event', () => {
    expect(cancelMeaning({ source: 'local' }, true)).toBe('cancelAll');
  });

  it("means opting every plant out for the utility on a VTN's event", () => {
    expect(cancelMeaning({ source: 'vtn' }, true)).toBe('optOutAll');
  });

  it('means opting their own plants out for a participant', () => {
    expect(cancelMeaning({ source: 'local' }, false)).toBe('optOutMine');
  });

  it('is possible until the event is over, unless already sat out', () => {
    expect(cancellable({ status: 'active', optedOut: false })).toBe(true);
    expect(cancellable({ status: 'pending', optedOut: true })).toBe(false);
    expect(cancellable({ status: 'completed', optedOut: false })).toBe(false);
  });
});
