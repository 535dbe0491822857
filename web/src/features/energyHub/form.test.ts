import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  devicesFromPlant,
  emptyAddress,
  enrollmentBody,
  eventBody,
  initialValues,
  installDateOk,
  sourceAccountCheck,
  startOk,
  valuesOf,
} from './form';
import type { Enrollment, MasterDevice } from './types';

const inverter = (sn: string, hasBattery: boolean): MasterDevice => ({
  sn,
  manufacturer: 'Deye',
  model: 'SUN-8K-SG04LP3',
  installDate: '2024-03-01',
  ratedPower: 8,
  chargeCapacity: 5,
  dischargeCapacity: 5,
  storageCapacity: 10.2,
  hasBattery,
});

const address = {
  country: 'DE',
  region: 'Bavaria',
  locality: 'Munich',
  extendedAddress: '',
  streetAddress: 'Hauptstr. 1',
  postalCode: '80331',
};

describe('enroll form', () => {
  it('prefills only the inverters with a battery', () => {
    const rows = devicesFromPlant([inverter('A1', true), inverter('B2', false)]);
    expect(rows.map((r) => r.sn)).toEqual(['A1']);
    expect(rows[0]?.installDate?.format('YYYY-MM-DD')).toBe('2024-03-01');
  });

  it('leaves the mailing address out when it is the service address', () => {
    const v = {
      ...initialValues(7),
      programId: 1,
      stationId: 2,
      devices: devicesFromPlant([inverter('A1', true)]),
      sourceAccountNumber: ' 123 ',
      utilityAccountNumber: 'acct-1',
      firstName: 'Ana',
      lastName: 'Li',
      email: 'ana@example.com',
      serviceAddress: address,
      timeZone: 'Europe/Berlin',
    };
    const body = enrollmentBody(v);
    expect(body.mailingAddress).toBeUndefined();
    expect(body.sourceAccountNumber).toBe('123');
    expect(body.devices[0]).toMatchObject({ sn: 'A1', installDate: '2024-03-01' });
    expect(body.id).toBeUndefined();
    const other = enrollmentBody({ ...v, sameMailing: false, mailingAddress: emptyAddress() }, 9);
    expect(other.mailingAddress).toEqual(emptyAddress());
    expect(other.id).toBe(9);
  });

  it('reads an enrollment back with "same as service" when the addresses match', () => {
    const e = {
      id: 1,
      programId: 1,
      stationId: 2,
      devices: [{ ...inverter('A1', true) }],
      sourceAccountNumber: '1',
      utilityAccountNumber: 'a',
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.co',
      serviceAddress: address,
      mailingAddress: { ...address },
      participationLevel: 40,
      timeZone: 'UTC',
    } as unknown as Enrollment;
    const v = valuesOf(e);
    expect(v.sameMailing).toBe(true);
    expect(v.devices[0]?.installDate?.format('YYYY-MM-DD')).toBe('2024-03-01');
    expect(valuesOf({ ...e, mailingAddress: { ...address, locality: 'Berlin' } }).sameMailing).toBe(
      false,
    );
  });

  it('takes source account numbers of 1-16 digits only', () => {
    expect(sourceAccountCheck('1234567890123456')).toBeNull();
    expect(sourceAccountCheck('12a')).toEqual({ key: 'validation.digitsOnly' });
    expect(sourceAccountCheck('1'.repeat(17))).toEqual({
      key: 'validation.maxLength',
      values: { max: 16 },
    });
  });

  it('refuses an install date in the future', () => {
    const today = dayjs('2026-05-01');
    expect(installDateOk(dayjs('2026-05-01'), today)).toBe(true);
    expect(installDateOk(dayjs('2026-05-02'), today)).toBe(false);
  });
});

describe('new event form', () => {
  it('sends the start as RFC 3339 UTC to the second', () => {
    const start = dayjs('2026-05-01T18:00:00Z');
    const body = eventBody({
      programId: 3,
      name: ' Peak ',
      start,
      durationMinutes: 120,
      kind: 'discharge',
      targetKw: 3,
      priority: 0,
    });
    expect(body).toEqual({
      programId: 3,
      name: 'Peak',
      start: '2026-05-01T18:00:00Z',
      durationMinutes: 120,
      kind: 'discharge',
      targetKw: 3,
      priority: 0,
    });
  });

  it('accepts a start at most five minutes ago', () => {
    const now = dayjs('2026-05-01T18:00:00Z');
    expect(startOk(now.subtract(4, 'minute'), now)).toBe(true);
    expect(startOk(now.subtract(6, 'minute'), now)).toBe(false);
  });
});
