import { describe, expect, it } from 'vitest';
import { defaults } from '@/shared/list/params';
import { GATEWAY_FILTERS, gatewayParams } from './api';
import { signalBars, signalUnit } from './signal';

describe('signalBars', () => {
  it('reads dBm values into four bars', () => {
    expect(signalBars(-61)).toBe(4);
    expect(signalBars(-70)).toBe(3);
    expect(signalBars(-80)).toBe(2);
    expect(signalBars(-90)).toBe(1);
    expect(signalBars(-110)).toBe(0);
  });

  it('reads percentages and missing values', () => {
    expect(signalBars(80)).toBe(4);
    expect(signalBars(30)).toBe(2);
    expect(signalBars(0)).toBe(0);
    expect(signalBars(null)).toBeNull();
    expect(signalBars(Number.NaN)).toBeNull();
    expect(signalUnit(-61)).toBe('dBm');
    expect(signalUnit(61)).toBe('%');
  });
});

describe('gatewayParams', () => {
  it('sends "any" as -1 and leaves an empty SN out', () => {
    expect(gatewayParams(defaults(GATEWAY_FILTERS, 10))).toEqual({
      page: 1,
      limit: 10,
      status: -1,
      uploadCycle: -1,
      protocol: -1,
    });
    expect(
      gatewayParams({ ...defaults(GATEWAY_FILTERS, 10), sn: ' gw1 ', protocol: 'deye' }),
    ).toMatchObject({
      sn: 'gw1',
      protocol: 'deye',
    });
  });
});
