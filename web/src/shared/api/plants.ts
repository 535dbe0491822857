import { queryOptions } from '@tanstack/react-query';
import { ErrorCode } from '../http';
import { api } from './client';
import { plantKeys } from './keys';
import type { Schemas } from './schema';

/** A tariff line of a plant as the server answers it (flat, time of use or tiered). */
export type TariffRow = Schemas['TariffRow'];

/** An entry of a dictionary (GET /api/v1/dict/{name}): currencies, time zones, plant types. */
export interface Dict {
  id: number;
  code?: string;
  text?: string;
  name?: string;
}

/** GET /api/v1/plant/{id}. */
export type PlantDetail = Schemas['PlantDetail'];

/** A plant; code 700 (no such plant, or not the caller's) is the screen's to show. */
export const plantDetailQuery = (id: number) =>
  queryOptions({
    queryKey: plantKeys.detail(id),
    queryFn: () =>
      api.get('/api/v1/plant/{id}', {
        path: { id },
        handledCodes: [ErrorCode.PlantMissing],
      }),
    retry: false,
  });

/** What a plant filter reads of an item of GET /api/v1/plants. */
export type PlantOption = Pick<Schemas['PlantItem'], 'id' | 'name'>;

/** The plants a device list's plant filter offers: the caller's first 100, by name. */
export const plantOptionsQuery = queryOptions({
  queryKey: plantKeys.options,
  queryFn: async () =>
    (
      await api.get('/api/v1/plants', {
        query: { page: 1, limit: 100, sort: 'name', order: 'asc' },
        silent: true,
      })
    ).infos,
  staleTime: 60_000,
});
