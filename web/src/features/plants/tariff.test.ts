import { describe, expect, it } from 'vitest';
import {
  addSegment,
  addTier,
  buildTariff,
  buildCreateBody,
  CONSTANT,
  tariffFromRows,
  investValue,
  normaliseSegments,
  normaliseTime,
  removeSegment,
  removeTier,
  setSegmentEnd,
  TIME_OF_USE,
  validateTariff,
  validateTiers,
  validateTou,
  VOLUME,
  type Segment,
} from './tariff';

const seg = (start: string, end: string, price: string | number = '0.1'): Segment => ({
  start,
  end,
  price,
});

describe('time-of-use segments', () => {
  it('accepts a day covered without gaps, ending at 24:00', () => {
    expect(validateTou([seg('00:00', '08:00'), seg('08:00', '24:00')])).toBeNull();
  });
  it('accepts 23:59 as the end of the day and stores it as 24:00', () => {
    const rows = [seg('00:00', '12:00'), seg('12:00', '23:59')];
    expect(validateTou(rows)).toBeNull();
    expect(normaliseSegments(rows)[1]?.end).toBe('24:00');
    expect(normaliseTime('23:59')).toBe('23:59');
    expect(normaliseTime('23:59', true)).toBe('24:00');
    expect(normaliseTime('7:05')).toBe('07:05');
  });
  it('reports a gap with the missing time', () => {
    expect(validateTou([seg('00:00', '08:00'), seg('09:00', '24:00')])).toEqual({
      key: 'plants.tariff.gap',
      values: { from: '08:00', to: '09:00' },
      row: 1,
    });
  });
  it('reports an overlap', () => {
    expect(validateTou([seg('00:00', '10:00'), seg('08:00', '24:00')])).toMatchObject({
      key: 'plants.tariff.overlap',
      row: 1,
    });
  });
  it('requires the first segment to start at 00:00 and the last to end at 24:00', () => {
    expect(validateTou([seg('01:00', '24:00')])?.key).toBe('plants.tariff.startAtMidnight');
    expect(validateTou([seg('00:00', '08:00'), seg('08:00', '22:00')])).toMatchObject({
      key: 'validation.touEnd',
      row: 1,
    });
  });
  it('refuses a segment that ends before it starts, and bad times', () => {
    expect(validateTou([seg('00:00', '00:00'), seg('00:00', '24:00')])?.key).toBe(
      'validation.touRange',
    );
    expect(validateTou([seg('00:00', '25:00')])?.key).toBe('plants.tariff.timeFormat');
    expect(validateTou([seg('00:00', 'noon')])?.key).toBe('plants.tariff.timeFormat');
  });
  it('allows at most 6 segments and at least one', () => {
    const six = ['00:00', '04:00', '08:00', '12:00', '16:00', '20:00'].map((s, i, all) =>
      seg(s, all[i + 1] ?? '24:00'),
    );
    expect(validateTou(six)).toBeNull();
    expect(validateTou([...six.slice(0, 5), seg('20:00', '22:00'), seg('22:00', '24:00')])).toEqual(
      {
        key: 'validation.touMax',
        values: { max: 6 },
      },
    );
    expect(validateTou([])?.key).toBe('validation.touRequired');
    expect(addSegment(six)).toHaveLength(6);
  });
  it('checks the prices (0-9999, 2 decimals)', () => {
    expect(validateTou([seg('00:00', '24:00', '')])).toMatchObject({
      key: 'plants.tariff.priceRequired',
      row: 0,
    });
    expect(validateTou([seg('00:00', '24:00', '0.123')])).toMatchObject({
      key: 'validation.decimals',
      values: { decimals: 2 },
    });
    expect(validateTou([seg('00:00', '24:00', '10000')])?.key).toBe('validation.range');
  });
  it('adds a row by splitting the last one, and removing a row keeps the day covered', () => {
    const added = addSegment([seg('00:00', '24:00')]);
    expect(added.map((r) => [r.start, r.end])).toEqual([
      ['00:00', '12:00'],
      ['12:00', '24:00'],
    ]);
    const three = addSegment(added);
    expect(three.map((r) => [r.start, r.end])).toEqual([
      ['00:00', '12:00'],
      ['12:00', '18:00'],
      ['18:00', '24:00'],
    ]);
    expect(removeSegment(three, 1).map((r) => [r.start, r.end])).toEqual([
      ['00:00', '18:00'],
      ['18:00', '24:00'],
    ]);
    expect(removeSegment(three, 0).map((r) => [r.start, r.end])).toEqual([
      ['00:00', '18:00'],
      ['18:00', '24:00'],
    ]);
    expect(removeSegment([seg('00:00', '24:00')], 0)).toHaveLength(1);
  });
  it('moves the next start along with an end', () => {
    const rows = setSegmentEnd([seg('00:00', '08:00'), seg('08:00', '24:00')], 0, '06:30');
    expect(rows.map((r) => [r.start, r.end])).toEqual([
      ['00:00', '06:30'],
      ['06:30', '24:00'],
    ]);
    expect(validateTou(rows)).toBeNull();
  });
});

describe('volume tiers', () => {
  it('accepts contiguous tiers from 0 with an open last tier', () => {
    expect(validateTiers([seg('0', '100'), seg('100', '500'), seg('500', '')])).toBeNull();
  });
  it('refuses a first tier not starting at 0, gaps, empty ranges and a closed last tier', () => {
    expect(validateTiers([seg('10', '')])?.key).toBe('plants.tariff.tierContiguous');
    expect(validateTiers([seg('0', '100'), seg('200', '')])).toMatchObject({
      key: 'plants.tariff.tierContiguous',
      values: { from: 100 },
      row: 1,
    });
    expect(validateTiers([seg('0', '0'), seg('0', '')])?.key).toBe('plants.tariff.tierRange');
    expect(validateTiers([seg('0', '100')])?.key).toBe('plants.tariff.tierOpen');
    expect(validateTiers([seg('0', 'x'), seg('5', '')])?.key).toBe('plants.tariff.tierNumber');
    expect(validateTiers([])?.key).toBe('plants.tariff.tierRequired');
  });
  it('adds and removes tiers keeping the last one open', () => {
    const two = addTier([seg('0', '')]);
    expect(two.map((r) => [r.start, r.end])).toEqual([
      ['0', '1000'],
      ['1000', ''],
    ]);
    expect(validateTiers(two.map((r) => ({ ...r, price: '0.2' })))).toBeNull();
    expect(removeTier(two, 1).map((r) => [r.start, r.end])).toEqual([['0', '']]);
  });
});

describe('request bodies', () => {
  it('builds constant, time-of-use and volume charges', () => {
    expect(buildTariff({ valuation: CONSTANT, price: '0.25' })).toEqual([
      { type: 1, price: 0.25, status: null },
    ]);
    expect(
      buildTariff({
        valuation: TIME_OF_USE,
        segments: [seg('00:00', '07:00', '0.1'), seg('07:00', '23:59', '0.3')],
      }),
    ).toEqual([
      { type: 2, price: 0.1, startRange: '00:00', endRange: '07:00', status: null },
      { type: 2, price: 0.3, startRange: '07:00', endRange: '24:00', status: null },
    ]);
    expect(
      buildTariff({ valuation: VOLUME, tiers: [seg('0', '100', '0.2'), seg('100', '9', '0.1')] }),
    ).toEqual([
      { type: 3, price: 0.2, startRange: '0', endRange: '100', status: null },
      { type: 3, price: 0.1, startRange: '100', endRange: '', status: null },
    ]);
  });
  it('validates the chosen method only', () => {
    expect(validateTariff({ valuation: CONSTANT, price: '1.5', segments: [] })).toBeNull();
    expect(validateTariff({ valuation: CONSTANT, price: '' })?.key).toBe(
      'plants.tariff.priceRequired',
    );
    expect(validateTariff({ valuation: TIME_OF_USE, segments: [] })?.key).toBe(
      'validation.touRequired',
    );
  });
  it('builds the create body with numbers, trimmed texts and no empty fields', () => {
    const body = buildCreateBody({
      name: '  Roof plant  ',
      totalPower: '12.5',
      joinDate: '2024-05-01',
      type: 2,
      timezone: 'Europe/Madrid',
      currency: 'EUR',
      address: ' Calle 1 ',
      lon: '-3.7',
      lat: '40.4',
      tilt: '30',
      azimuth: '',
      phone: '',
      email: 'a@b.co',
      invest: '1000.50',
      owner: '',
      imageUrl: '/files/a.png',
      thumbUrl: '/files/a_t.jpg',
      valuation: CONSTANT,
      price: '0.2',
    });
    expect(body).toEqual({
      name: 'Roof plant',
      totalPower: 12.5,
      joinDate: '2024-05-01',
      type: 2,
      timezone: 'Europe/Madrid',
      currency: 'EUR',
      address: 'Calle 1',
      lon: -3.7,
      lat: 40.4,
      // an orientation left empty is left out: the server assumes one
      tilt: 30,
      email: 'a@b.co',
      invest: 1000.5,
      imageUrl: '/files/a.png',
      thumbUrl: '/files/a_t.jpg',
      charges: [{ type: 1, price: 0.2, status: null }],
    });
  });
  it('reads the investment', () => {
    expect(investValue('')).toBeNull();
    expect(investValue('12.345')).toBeNull();
    expect(investValue('1000000000')).toBeNull();
    expect(investValue('99.9')).toBe(99.9);
  });
  it('reads a plant back into the editor', () => {
    const charges = [
      { type: 2, price: 0.2, startRange: '08:00', endRange: '24:00' },
      { type: 2, price: 0.1, startRange: '00:00', endRange: '08:00' },
    ];
    expect(tariffFromRows(charges, 2)).toEqual({
      valuation: 2,
      segments: [seg('00:00', '08:00', '0.1'), seg('08:00', '24:00', '0.2')],
    });
    expect(tariffFromRows([{ type: 1, price: 0.3 }], 1)).toEqual({ valuation: 1, price: '0.3' });
    expect(tariffFromRows([], null)).toEqual({ valuation: 1, price: '' });
    expect(
      tariffFromRows([{ type: 3, price: 0.1, startRange: '0', endRange: '' }], 3).tiers,
    ).toEqual([seg('0', '', '0.1')]);
  });
});
