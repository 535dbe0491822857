/**
 * The energy hub's wire types (GET/POST /api/v1/oadr/*): the generated schema's, statuses, kinds
 * and sources included, and the words of each set as the server lists them.
 */
import type { Schemas } from '@/shared/api/schema';
import { Enums } from '@/shared/api/enums.gen';

export const ENROLLMENT_STATUSES = Enums.EnrollmentStatus;
export type EnrollmentStatus = Schemas['EnrollmentStatus'];

export const EVENT_STATUSES = Enums.EventStatus;
export type EventStatus = Schemas['EventStatus'];

/** What a participant or the utility may do with an enrollment (the server lists them). */
export const ENROLLMENT_ACTIONS = Enums.EnrollmentAction;
export type EnrollmentAction = Schemas['EnrollmentAction'];

/** The kinds a utility of the portal may ask (`charge` only comes from a utility's server). */
export const EVENT_KINDS = ['discharge', 'exportLimit'] as const satisfies readonly EventKind[];
/** What an event asks; `charge` only comes from a utility's server (OpenADR DISPATCH_SETPOINT). */
export type EventKind = Schemas['EventKind'];

export type Source = Schemas['ProgramSource'];

export type Address = Schemas['AddressOut'];

/** One device of an enrollment (capacities in kW, storage in kWh, install date YYYY-MM-DD). */
export type EnrollmentDevice = Schemas['DeviceOut'];

/** GET /oadr/enrollment/{id} and the list's rows. */
export type Enrollment = Schemas['Enrollment'];

export type EnrollmentState = Schemas['EnrollmentState'];

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

export type Program = Schemas['Program'];

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

export type DrEvent = Schemas['Event'];

export type EventInterval = Schemas['IntervalOut'];

/** A device's dispatch in an event: pending, applied, failed, offline or restored. */
export type EventDispatch = Schemas['DispatchOutcome'];

export type EventReport = Schemas['ReportOutcome'];

export type DrEventDetail = Schemas['EventDetail'];

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
