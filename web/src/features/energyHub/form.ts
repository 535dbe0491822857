import dayjs, { type Dayjs } from 'dayjs';
import { Limits } from '@/shared/api/limits.gen';
import type { Check } from '@/shared/validators';
import type {
  Address,
  Enrollment,
  EnrollmentBody,
  EnrollmentDevice,
  EventBody,
  EventKind,
  MasterDevice,
} from './types';

/** One device row of the form: the install date as a date picker holds it. */
export interface DeviceValues extends Omit<EnrollmentDevice, 'installDate'> {
  installDate: Dayjs | null;
}

/** The enroll form's values (one set for every step). */
export interface EnrollValues {
  programId?: number;
  /** Whose plant: the caller (own id) or a customer's account. */
  userId?: number;
  stationId?: number;
  devices: DeviceValues[];
  sourceAccountNumber: string;
  utilityAccountNumber: string;
  firstName: string;
  lastName: string;
  email: string;
  serviceAddress: Address;
  /** Mailing address the same as the service address (then not sent). */
  sameMailing: boolean;
  mailingAddress: Address;
  participationLevel: number;
  timeZone?: string;
}

export const ADDRESS_FIELDS = [
  'country',
  'region',
  'locality',
  'streetAddress',
  'extendedAddress',
  'postalCode',
] as const satisfies readonly (keyof Address)[];

/** Parts of an address the server requires (the extended address is optional). */
export const REQUIRED_ADDRESS: readonly (keyof Address)[] = [
  'country',
  'region',
  'locality',
  'streetAddress',
  'postalCode',
];

export const emptyAddress = (): Address => ({
  country: '',
  region: '',
  locality: '',
  extendedAddress: '',
  streetAddress: '',
  postalCode: '',
});

export const DEFAULT_PARTICIPATION = 100;
/** The most devices an enrollment holds (the server's limit). */
export const MAX_DEVICES = Limits.EnrollmentRequest.devices.maxItems;

export function initialValues(userId?: number): EnrollValues {
  return {
    userId,
    devices: [],
    sourceAccountNumber: '',
    utilityAccountNumber: '',
    firstName: '',
    lastName: '',
    email: '',
    serviceAddress: emptyAddress(),
    sameMailing: true,
    mailingAddress: emptyAddress(),
    participationLevel: DEFAULT_PARTICIPATION,
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function day(value: string | null | undefined): Dayjs | null {
  return value && DAY.test(value) ? dayjs(value) : null;
}

/**
 * The plant's inverters that can take part (those with a battery, at most ten), as form rows
 * prefilled from what the portal knows of them.
 */
export function devicesFromPlant(devices: readonly MasterDevice[]): DeviceValues[] {
  return devices
    .filter((d) => d.hasBattery)
    .slice(0, MAX_DEVICES)
    .map((d) => ({
      sn: d.sn,
      manufacturer: d.manufacturer ?? '',
      model: d.model ?? '',
      installDate: day(d.installDate),
      chargeCapacity: d.chargeCapacity,
      dischargeCapacity: d.dischargeCapacity,
      storageCapacity: d.storageCapacity,
    }));
}

/** A device row as the API takes it. */
export function deviceBody(d: DeviceValues): EnrollmentDevice {
  return {
    sn: d.sn,
    manufacturer: d.manufacturer.trim(),
    model: d.model.trim(),
    installDate: d.installDate ? d.installDate.format('YYYY-MM-DD') : '',
    chargeCapacity: Number(d.chargeCapacity),
    dischargeCapacity: Number(d.dischargeCapacity),
    storageCapacity: Number(d.storageCapacity),
  };
}

function trimAddress(a: Address): Address {
  return {
    country: a.country.trim(),
    region: a.region.trim(),
    locality: a.locality.trim(),
    extendedAddress: (a.extendedAddress ?? '').trim(),
    streetAddress: a.streetAddress.trim(),
    postalCode: a.postalCode.trim(),
  };
}

export function sameAddress(a: Address, b: Address): boolean {
  const x = trimAddress(a);
  const y = trimAddress(b);
  return ADDRESS_FIELDS.every((k) => x[k] === y[k]);
}

/**
 * The request of the form: trimmed texts, dates as `YYYY-MM-DD`, the mailing address left
 * out when it is the service address (the server copies it), `id` when editing.
 */
export function enrollmentBody(v: EnrollValues, id?: number): EnrollmentBody {
  const body: EnrollmentBody = {
    programId: v.programId ?? 0,
    stationId: v.stationId ?? 0,
    sourceAccountNumber: v.sourceAccountNumber.trim(),
    utilityAccountNumber: v.utilityAccountNumber.trim(),
    firstName: v.firstName.trim(),
    lastName: v.lastName.trim(),
    email: v.email.trim(),
    serviceAddress: trimAddress(v.serviceAddress),
    devices: v.devices.map(deviceBody),
    participationLevel: Math.round(v.participationLevel),
    timeZone: v.timeZone ?? '',
  };
  if (!v.sameMailing) body.mailingAddress = trimAddress(v.mailingAddress);
  if (id !== undefined) body.id = id;
  return body;
}

/** The form of an existing enrollment (to edit or resubmit it). */
export function valuesOf(e: Enrollment): EnrollValues {
  return {
    programId: e.programId,
    stationId: e.stationId,
    devices: e.devices.map((d) => ({ ...d, installDate: day(d.installDate) })),
    sourceAccountNumber: e.sourceAccountNumber,
    utilityAccountNumber: e.utilityAccountNumber,
    firstName: e.firstName,
    lastName: e.lastName,
    email: e.email,
    serviceAddress: { ...emptyAddress(), ...e.serviceAddress },
    sameMailing: sameAddress(e.serviceAddress, e.mailingAddress),
    mailingAddress: { ...emptyAddress(), ...e.mailingAddress },
    participationLevel: e.participationLevel,
    timeZone: e.timeZone,
  };
}

/** A source account number: digits only, 1-16 of them. */
export function sourceAccountCheck(value: unknown): Check {
  const s = value === null || value === undefined ? '' : String(value);
  if (!/^\d+$/.test(s)) return { key: 'validation.digitsOnly' };
  const max = Limits.EnrollmentRequest.sourceAccountNumber.maxLength;
  return s.length <= max ? null : { key: 'validation.maxLength', values: { max } };
}

/** An install date may not lie in the future. */
export function installDateOk(value: Dayjs | null | undefined, today: Dayjs = dayjs()): boolean {
  return !value || !value.isAfter(today, 'day');
}

// ---- events ---------------------------------------------------------------------------------

export interface EventValues {
  programId?: number;
  name: string;
  start: Dayjs;
  durationMinutes: number;
  kind: EventKind;
  targetKw: number;
  priority: number;
}

export function initialEvent(now: Dayjs = dayjs()): EventValues {
  return {
    name: '',
    start: now.second(0).millisecond(0),
    durationMinutes: 60,
    kind: 'discharge',
    targetKw: 3,
    priority: 0,
  };
}

/** RFC 3339 UTC to the second, as the API reads it. */
export function rfc3339(at: Dayjs): string {
  return `${at.toDate().toISOString().slice(0, 19)}Z`;
}

export function eventBody(v: EventValues): EventBody {
  return {
    programId: v.programId ?? 0,
    name: v.name.trim(),
    start: rfc3339(v.start),
    durationMinutes: Math.round(Number(v.durationMinutes)),
    kind: v.kind,
    targetKw: Number(v.targetKw),
    priority: Math.round(Number(v.priority)),
  };
}

/** The start may not be more than five minutes ago. */
export function startOk(start: Dayjs | null | undefined, now: Dayjs = dayjs()): boolean {
  return !!start && !start.isBefore(now.subtract(5, 'minute'));
}
