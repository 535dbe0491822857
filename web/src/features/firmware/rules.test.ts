import { describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { ApiError } from '@/shared/http';
import type { InverterTypeNode } from './api';
import {
  findType,
  firmwareFile,
  firmwareRefusal,
  firmwareVersion,
  labelOptions,
  parseCodes,
  refusalDetail,
  sizeText,
  typeRefusal,
} from './rules';

const node = (id: number, name: string, children: InverterTypeNode[] = [], codes: number[] = []) =>
  ({
    id,
    parentId: null,
    name,
    sort: 0,
    codes,
    firmwareCount: 0,
    children,
  }) satisfies InverterTypeNode;

const tree = [
  node(1, 'Hybrid', [node(11, 'Three-phase HV', [], [94]), node(12, 'Single-phase LV', [], [2])]),
  node(2, 'Empty title'),
];

describe('inverter type codes', () => {
  it('takes the listed codes and typed numbers up to 9999, once each', () => {
    expect(parseCodes([94, '21', ' 7 ', 94])).toEqual([94, 21, 7]);
    expect(parseCodes([])).toEqual([]);
  });
  it('refuses anything that is not a whole number from 0 to 9999', () => {
    expect(parseCodes(['x'])).toBeNull();
    expect(parseCodes(['10000'])).toBeNull();
    expect(parseCodes(['-1'])).toBeNull();
    expect(parseCodes(['1.5'])).toBeNull();
  });
});

describe('the server refusals', () => {
  it('reads the detail after the catalogue message, in any language', () => {
    expect(refusalDetail(new ApiError(4, 'Parameter validation error: hasSubtype'))).toBe(
      'hasSubtype',
    );
    expect(refusalDetail(new ApiError(4, '参数校验错误: primaryTitle'))).toBe('primaryTitle');
    expect(refusalDetail(new ApiError(4, 'Parameter validation error'))).toBeNull();
    expect(refusalDetail(new ApiError(2, 'No permission: x'))).toBeNull();
  });
  it('translates the tree refusals the spec names', () => {
    const of = (d: string) => typeRefusal(new ApiError(4, `Parameter validation error: ${d}`));
    expect(of('hasSubtype')?.key).toBe('firmware.types.refusal.hasSubtype');
    expect(of('primaryTitle')?.key).toBe('firmware.types.refusal.primaryTitle');
    expect(of('nameAtTarget')?.key).toBe('firmware.types.refusal.nameAtTarget');
    expect(of('hasFirmware')?.key).toBe('firmware.types.refusal.hasFirmware');
    expect(of('codes: 94')).toEqual({
      key: 'firmware.types.refusal.codes',
      values: { code: '94' },
    });
    expect(of('something else')).toBeNull();
  });
  it('points firmware refusals at their field', () => {
    expect(firmwareRefusal(new ApiError(4000, 'dup'))?.field).toBe('name');
    expect(firmwareRefusal(new ApiError(4002, 'dup'))?.field).toBe('version');
    expect(firmwareRefusal(new ApiError(12, 'big'))?.field).toBe('file');
    expect(
      firmwareRefusal(
        new ApiError(4, 'Parameter validation error: version lower than the latest (2_0_1)'),
      ),
    ).toEqual({
      field: 'version',
      key: 'validation.versionNotHigher',
      values: { latest: '2_0_1' },
    });
    expect(firmwareRefusal(new ApiError(4, 'Parameter validation error: typeId'))?.field).toBe(
      'typeId',
    );
    expect(firmwareRefusal(new Error('network'))).toBeNull();
  });
});

describe('the quick file checks', () => {
  const MB = 1024 * 1024;
  it('wants .bin or .hex, a plain name of at most 40 characters and 1.5 MB', () => {
    expect(firmwareFile({ name: 'inv_94-2.1.bin', size: 300 * 1024 })).toBeNull();
    expect(firmwareFile({ name: 'inv.zip', size: 1 })?.key).toBe('validation.firmwareType');
    expect(firmwareFile({ name: 'inv 94.bin', size: 1 })?.key).toBe('validation.firmwareName');
    expect(firmwareFile({ name: `${'a'.repeat(37)}.hex`, size: 1 })?.key).toBe(
      'validation.firmwareName',
    );
    expect(firmwareFile({ name: 'a.hex', size: 1.5 * MB + 1 })?.key).toBe('validation.fileSize');
  });
  it('wants versions of letters, digits, - and _', () => {
    expect(firmwareVersion('V2_1-0')).toBeNull();
    expect(firmwareVersion('2.1')).not.toBeNull();
  });
  it('tells sizes as people read them', () => {
    expect(sizeText(512)).toBe('512 B');
    expect(sizeText(300 * 1024)).toBe('300.0 KB');
    expect(sizeText(1.5 * 1024 * 1024)).toBe('1.50 MB');
  });
});

describe('the tree', () => {
  it('offers only secondary labels, grouped by their primary title, with their codes', () => {
    expect(labelOptions(tree)).toEqual([
      {
        label: 'Hybrid',
        title: 'Hybrid',
        options: [
          { value: 11, label: 'Three-phase HV (94)' },
          { value: 12, label: 'Single-phase LV (2)' },
        ],
      },
    ]);
  });
  it('finds a node and its primary title', () => {
    expect(findType(tree, 12)?.primary.name).toBe('Hybrid');
    expect(findType(tree, 2)?.node.name).toBe('Empty title');
    expect(findType(tree, 99)).toBeNull();
    expect(findType(tree, null)).toBeNull();
  });
});
