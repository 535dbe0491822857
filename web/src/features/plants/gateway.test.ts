import { describe, expect, it } from 'vitest';
import { ApiError } from '@/shared/http/errors';
import {
  gatewayErrorField,
  gatewayFieldErrors,
  showGatewayError,
  gatewayInput,
  gatewayKey,
  gatewayRights,
  gatewaySn,
  signalText,
} from './gateway';

describe('gatewayInput', () => {
  it('is null when both fields are empty (the step is skipped)', () => {
    expect(gatewayInput(undefined, undefined)).toBeNull();
    expect(gatewayInput('  ', '')).toBeNull();
  });
  it('trims the values and keeps a half-filled pair for validation', () => {
    expect(gatewayInput(' GW-0001 ', ' k3y! ')).toEqual({ sn: 'GW-0001', key: 'k3y!' });
    expect(gatewayInput('GW-0001', '')).toEqual({ sn: 'GW-0001', key: '' });
  });
});

describe('gateway formats', () => {
  it('accepts letters, digits and - in SNs of 6-32 characters', () => {
    expect(gatewaySn('GW-0001')).toBeNull();
    expect(gatewaySn('a'.repeat(32))).toBeNull();
    expect(gatewaySn('GW01')).toEqual({ key: 'plants.gateway.snFormat' });
    expect(gatewaySn('a'.repeat(33))).not.toBeNull();
    expect(gatewaySn('GW_0001')).not.toBeNull();
    expect(gatewaySn('GW 0001')).not.toBeNull();
  });
  it('accepts keys of 4-32 visible characters', () => {
    expect(gatewayKey('k3y!')).toBeNull();
    expect(gatewayKey('~'.repeat(32))).toBeNull();
    expect(gatewayKey('abc')).toEqual({ key: 'plants.gateway.keyFormat' });
    expect(gatewayKey('ab cd')).not.toBeNull();
    expect(gatewayKey('ключ1')).not.toBeNull();
  });
});

describe('gatewayErrorField', () => {
  it('puts 301 at the SN, 300 at the key and nothing else at a field', () => {
    expect(gatewayErrorField(301)).toBe('sn');
    expect(gatewayErrorField(300)).toBe('key');
    expect(gatewayErrorField(700)).toBeNull();
    expect(gatewayErrorField(2)).toBeNull();
  });
});

describe('signalText', () => {
  it('formats numbers as dBm and leaves unknown values out', () => {
    expect(signalText(-71)).toBe('-71 dBm');
    expect(signalText('-65.4')).toBe('-65 dBm');
    expect(signalText(null)).toBeNull();
    expect(signalText('')).toBeNull();
    expect(signalText('n/a')).toBeNull();
  });
});

describe('gatewayRights', () => {
  it('adds with gateway.add or station.edit and unbinds with gateway.unbind', () => {
    expect(gatewayRights(['station.edit'])).toEqual({ add: true, unbind: false });
    expect(gatewayRights(['gateway.add', 'gateway.unbind'])).toEqual({ add: true, unbind: true });
    expect(gatewayRights(['station.view'])).toEqual({ add: false, unbind: false });
  });
});

describe('gatewayFieldErrors / showGatewayError', () => {
  it('maps 300 and 301 to their fields and leaves other errors alone', () => {
    expect(gatewayFieldErrors(new ApiError(300, 'Gateway SN or key incorrect'))).toEqual([
      { name: 'gatewayKey', errors: ['Gateway SN or key incorrect'] },
    ]);
    expect(gatewayFieldErrors(new ApiError(301, 'Gateway already used'))).toEqual([
      { name: 'gatewaySn', errors: ['Gateway already used'] },
    ]);
    expect(gatewayFieldErrors(new ApiError(700, 'x'))).toBeNull();
    expect(gatewayFieldErrors(new Error('boom'))).toBeNull();
  });
  it('sets the fields only for field errors', () => {
    const calls: unknown[] = [];
    const form = { setFields: (f: unknown) => void calls.push(f) };
    expect(showGatewayError(form, new ApiError(301, 'used'))).toBe(true);
    expect(showGatewayError(form, new ApiError(2, 'no'))).toBe(false);
    expect(calls).toHaveLength(1);
  });
});
