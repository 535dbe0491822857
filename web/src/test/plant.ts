import type { Schemas } from '@/shared/api/schema';

/** A plant as GET /api/v1/plants lists it: an empty, online home plant unless patched. */
export const aPlant = (patch: Partial<Schemas['PlantItem']> = {}): Schemas['PlantItem'] => ({
  id: 7,
  name: 'Roof A',
  address: '',
  createAt: '2026-11-20T10:00:00.000+00:00',
  updateAt: '2026-11-20T10:00:00.000+00:00',
  efficiency: 0,
  etoday: 0,
  etotal: 0,
  existCamera: false,
  lat: 0,
  lon: 0,
  masterId: 1,
  offered: false,
  pac: 0,
  plantPermission: [],
  share: false,
  stale: false,
  switchedOff: false,
  status: 1,
  thumbUrl: '',
  totalPower: 0,
  type: 0,
  ...patch,
});
