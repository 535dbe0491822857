import type { NamePath } from 'antd/es/form/interface';

/** The enroll form's steps, in order. */
export const STEPS = ['program', 'devices', 'contact', 'place'] as const;
export type StepKey = (typeof STEPS)[number];

/** The fields each step checks before the next one opens (nested ones included). */
export const STEP_FIELDS: Record<StepKey, NamePath[]> = {
  program: ['programId', 'userId', 'stationId'],
  devices: ['devices'],
  contact: ['sourceAccountNumber', 'utilityAccountNumber', 'firstName', 'lastName', 'email'],
  place: ['serviceAddress', 'sameMailing', 'mailingAddress', 'participationLevel', 'timeZone'],
};
