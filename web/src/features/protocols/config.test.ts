import { describe, expect, it } from 'vitest';
import {
  copyConfig,
  dataTypeName,
  dataTypeOf,
  newPoint,
  normalizeFrame,
  parseConfig,
  registerCount,
  setField,
  shownValue,
  type Point,
  type ProtocolConfig,
} from './config';

const freq: Point = {
  key: 'grid_frequency',
  unit: 'Hz',
  address: 79,
  data_type: 'u16',
  scale: 0.01,
};

const config: ProtocolConfig = {
  code: 'deye-hybrid-1ph',
  name: 'Deye',
  family: 'inverter',
  version: 2,
  points: [freq, { key: 'total', address: 81, data_type: 'u32', word_swap: true }],
};

describe('protocol config editing', () => {
  it('leaves a field set back to its default out of the JSON, as the server writes it', () => {
    expect(setField(freq, 'scale', 0.1)).toEqual({ ...freq, scale: 0.1 });
    const plain: Point = { key: 'grid_frequency', unit: 'Hz', address: 79, data_type: 'u16' };
    expect(setField(freq, 'scale', 1)).toEqual(plain);
    expect(setField(freq, 'scale', null)).toEqual(plain);
    expect(setField(freq, 'byte_swap', true)).toEqual({ ...freq, byte_swap: true });
    expect(setField({ ...freq, byte_swap: true }, 'byte_swap', false)).toEqual(freq);
    expect(setField(freq, 'address', null).address).toBe(0);
  });

  it('drops a register type that would contradict a new function code', () => {
    const p: Point = { ...freq, function_code: 4, register_type: 'input' };
    expect(setField(p, 'function_code', 3)).toEqual(freq);
  });

  it('names data types, and starts a bit field at bit 0, width 1', () => {
    expect(dataTypeName('u16')).toBe('u16');
    expect(dataTypeName({ bits: { bit: 3, width: 2 } })).toBe('bits');
    expect(dataTypeOf('bits', 'u16')).toEqual({ bits: { bit: 0, width: 1 } });
    expect(dataTypeOf('bits', { bits: { bit: 3, width: 2 } })).toEqual({
      bits: { bit: 3, width: 2 },
    });
    expect(dataTypeOf('i32', { bits: { bit: 3, width: 2 } })).toBe('i32');
  });

  it('counts registers as the decoder does', () => {
    expect(registerCount(freq)).toBe(1);
    expect(registerCount({ key: 'x', address: 0, data_type: 'u32' })).toBe(2);
    expect(registerCount({ key: 'x', address: 0, data_type: 'u8', skip_bytes: 1 })).toBe(1);
    expect(registerCount({ key: 'x', address: 0, data_type: 'string' })).toBeNull();
    expect(registerCount({ key: 'x', address: 0, data_type: 'string', count: 5 })).toBe(5);
  });

  it('adds a point after the last one with a free key', () => {
    expect(newPoint(config.points)).toEqual({ key: 'point_3', address: 83, data_type: 'u16' });
    expect(newPoint([])).toEqual({ key: 'point_1', address: 0, data_type: 'u16' });
  });

  it('reads a pasted frame as hex bytes', () => {
    expect(normalizeFrame('01 03 04\n13:88 0x00-64')).toBe('0103041388' + '0064');
    expect(normalizeFrame('138')).toBeNull();
    expect(normalizeFrame('zz')).toBeNull();
    expect(normalizeFrame('  ')).toBeNull();
  });

  it('reads the raw editor, and says why text is not a config', () => {
    expect(parseConfig(JSON.stringify(config))).toEqual({ config });
    expect(parseConfig('{')).toHaveProperty('error');
    expect(parseConfig('[]')).toEqual({ error: 'not an object' });
    expect(parseConfig('{"points": 3}')).toEqual({ error: 'points' });
  });

  it('copies a config under a new code as its first revision', () => {
    const copy = copyConfig(config, ' my-map ', ' Mine ');
    expect(copy).toMatchObject({ code: 'my-map', name: 'Mine', version: 1 });
    expect(copy.points).toBe(config.points);
  });

  it('shows decoded values without float noise', () => {
    expect(shownValue(230.10000000000002)).toBe('230.1');
    expect(shownValue(500)).toBe('500');
    expect(shownValue('SN123')).toBe('SN123');
    expect(shownValue(null)).toBe('--');
  });
});
