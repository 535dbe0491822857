/**
 * The energy hub's wire types (GET/POST /api/v1/oadr/*): the generated schema's, with the
 * statuses, kinds and sources narrowed to the words the screens know.
 */
import type { Schemas } from '@/shared/api/schema';

export const ENROLLMENT_STATUSES = ['pending', 'accepted', 'rejected', 'unenrolled'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

export const EVENT_STATUSES = ['pending', 'active', 'completed', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** What a participant or the utility may do with an enrollment (the server lists them). */
export const ENROLLMENT_ACTIONS = [
  'join',
  'resubmit',
  'quit',
  'optOut',
  'optIn',
  'accept',
  'reject',
] as const;
export type EnrollmentAction = (typeof ENROLLMENT_ACTIONS)[number];

export const EVENT_KINDS = ['discharge', 'exportLimit'] as const;
/** What an event asks; `charge` only comes from a utility's server (OpenADR DISPATCH_SETPOINT). */
export type EventKind = (typeof EVENT_KINDS)[number] | 'charge';

export type Source = 'local' | 'vtn';

type Narrowed<T, K extends keyof T, V> = Omit<T, K> & { [P in K]: V };

export type Address = Schemas['AddressOut'];

/** One device of an enrollment (capacities in kW, storage in kWh, install date YYYY-MM-DD). */
export type EnrollmentDevice = Schemas['DeviceOut'];

/** GET /oadr/enrollment/{id} and the list's rows. */
export type Enrollment = Omit<Schemas['Enrollment'], 'status' | 'source'> & {
  status: EnrollmentStatus;
  source: Source;
};

export type EnrollmentState = Narrowed<Schemas['EnrollmentState'], 'status', EnrollmentStatus>;

/** POST /oadr/enrollment (without `id`: a new enrollment). */
export interface EnrollmentBody {
  id?: number;
  programId: number;
  stationId: number;
  sourceAccountNumber: string;
  utilityAccountNumber: string;
  firstName: string;
  lastName: string;
  email: string;
  serviceAddress: Address;
  mailingAddress?: Address;
  devices: EnrollmentDevice[];
  participationLevel: number;
  timeZone: string;
}

export type Program = Narrowed<Schemas['Program'], 'source', Source>;

export interface ProgramBody {
  id?: number;
  name: string;
  longName: string;
  description: string;
  retailer: string;
  autoAccept: boolean;
  active: boolean;
}

export type TimeZoneOption = Schemas['TimeZone'];

/** A plant of GET /oadr/userStationList/{userId}. */
export type UserStation = Schemas['Station'];

/** A hybrid inverter of GET /oadr/stationMasterDevice/{stationId} (install date '' unknown). */
export type MasterDevice = Schemas['MasterDevice'];

export type DrEvent = Omit<Schemas['Event'], 'status' | 'kind' | 'source'> & {
  status: EventStatus;
  kind: EventKind;
  source: Source;
};

export type EventInterval = Narrowed<Schemas['IntervalOut'], 'kind', EventKind>;

/** A device's dispatch in an event: pending, applied, failed, offline or restored. */
export type EventDispatch = Schemas['DispatchOutcome'];

export type EventReport = Schemas['ReportOutcome'];

export type DrEventDetail = DrEvent & {
  intervals: EventInterval[];
  dispatches: EventDispatch[];
  reports: EventReport[];
};

export interface EventBody {
  programId: number;
  name: string;
  /** RFC 3339 */
  start: string;
  durationMinutes: number;
  kind: EventKind;
  targetKw: number;
  priority: number;
}

/** A utility's OpenADR VTN connection; the secret is write-only (`hasSecret`). */
export type Vtn = Schemas['Vtn'];

/** POST /oadr/vtn: an omitted client id or secret keeps the stored one. */
export type VtnBody = Schemas['VtnRequest'];
