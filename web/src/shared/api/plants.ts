import { queryOptions } from '@tanstack/react-query';
import { ErrorCode, http, type Page } from '../http';
import { plantKeys } from './keys';

/** A tariff line of a plant (flat, time of use or tiered). */
export interface Charge {
  id?: number;
  type: number;
  price: number | string;
  startRange?: string | null;
  endRange?: string | null;
  status?: null | 'import' | 'export';
}

/** An entry of a dictionary (GET /api/v1/dict/{name}): currencies, time zones, plant types. */
export interface Dict {
  id: number;
  code?: string;
  text?: string;
  name?: string;
}

/** GET /api/v1/plant/{id}. */
export interface PlantDetail {
  id: number;
  name: string;
  totalPower: number | null;
  thumbUrl: string | null;
  imageUrl: string | null;
  joinDate: string | null;
  type: number;
  status: number;
  charges: Charge[];
  valuation: number | null;
  lon: number | null;
  lat: number | null;
  address: string | null;
  master: { id: number; nickname: string | null; mobile: string | null; account?: string } | null;
  currency: Dict | null;
  timezone: Dict | null;
  createAt: string | null;
  phone: string | null;
  email: string | null;
  installer: string | null;
  principal: string | null;
  invest: number | null;
  /** The caller's keys on this plant: they decide what a device screen of it offers. */
  plantPermission: string[];
  share: boolean;
  companyId: number | null;
  /** The account the plant waits to be accepted by (those who may see the plant read it). */
  offer?: { account: string; nickname: string; offeredAt: string } | null;
}

/** A plant; code 700 (no such plant, or not the caller's) is the screen's to show. */
export const plantDetailQuery = (id: number) =>
  queryOptions({
    queryKey: plantKeys.detail(id),
    queryFn: () =>
      http.get<PlantDetail>(`/api/v1/plant/${id}`, {
        params: { id },
        handledCodes: [ErrorCode.PlantMissing],
      }),
    retry: false,
  });

export interface PlantOption {
  id: number;
  name: string;
}

/** The plants a device list's plant filter offers: the caller's first 100, by name. */
export const plantOptionsQuery = queryOptions({
  queryKey: plantKeys.options,
  queryFn: async () =>
    (
      await http.get<Page<PlantOption>>('/api/v1/plants', {
        params: { page: 1, limit: 100, sort: 'name', order: 'asc' },
        silent: true,
      })
    ).infos,
  staleTime: 60_000,
});
