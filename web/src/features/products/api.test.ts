import { describe, expect, it } from 'vitest';
import { ApiError } from '@/shared/http';
import {
  productBody,
  productParams,
  productRefusal,
  secondaryLabels,
  type ProductBody,
} from './api';

const form: ProductBody = {
  name: ' SUN-5K ',
  partNumber: ' SG05LP1 ',
  category: 'inverter',
  manufacturer: ' Deye ',
  typeId: 4,
  ratedPower: 5000,
  remark: ' ',
  hardware: [' V1.0', 'V1.0', '', 'V2.0 '],
};

describe('product api helpers', () => {
  it('sends search and category only when set', () => {
    expect(productParams({ keyword: ' ', category: '', page: 0, limit: 500 })).toEqual({
      page: 1,
      limit: 100,
    });
    expect(productParams({ keyword: ' sun', category: 'meter', page: 2, limit: 20 })).toEqual({
      page: 2,
      limit: 20,
      keyword: 'sun',
      category: 'meter',
    });
  });

  it('trims the form, drops empty and repeated hardware versions', () => {
    expect(productBody(form)).toEqual({
      name: 'SUN-5K',
      partNumber: 'SG05LP1',
      category: 'inverter',
      manufacturer: 'Deye',
      typeId: 4,
      ratedPower: 5000,
      remark: '',
      hardware: ['V1.0', 'V2.0'],
    });
  });

  it('files only inverters under an inverter-type label', () => {
    expect(productBody({ ...form, category: 'battery' }).typeId).toBeNull();
  });

  it('names secondary labels with their primary title, in tree order', () => {
    const node = (id: number, name: string, parentId: number | null, children = []) => ({
      id,
      parentId,
      name,
      sort: 0,
      codes: [],
      firmwareCount: 0,
      children,
    });
    expect(
      secondaryLabels([
        { ...node(1, 'Hybrid', null), children: [node(3, '1ph LV', 1), node(4, '3ph LV', 1)] },
        node(2, 'Empty', null),
      ]),
    ).toEqual([
      { value: 3, label: 'Hybrid / 1ph LV' },
      { value: 4, label: 'Hybrid / 3ph LV' },
    ]);
  });

  it('points refusals at their field', () => {
    const refused = (detail: string) =>
      productRefusal(new ApiError(4, `Parameter validation error: ${detail}`));
    expect(refused('partNumber')).toEqual({
      field: 'partNumber',
      key: 'products.refusal.partNumber',
    });
    expect(refused('hardware')).toEqual({ field: 'hardware', key: 'products.refusal.hardware' });
    expect(refused('name')).toEqual({ field: 'name', key: 'products.refusal.invalid' });
    expect(refused('inUse')).toBeNull();
    expect(productRefusal(new ApiError(2, 'No permission'))).toBeNull();
  });
});
