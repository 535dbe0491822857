import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DEFAULT_QUERY, deviceListQueries, type DeviceQuery } from './api';
import type { DeviceKind } from './kind';

/** The state of a device list screen: the query, the SN being typed, and the three requests. */
export function useDeviceList<Row>(kind: DeviceKind) {
  const queries = deviceListQueries<Row>(kind);
  const [query, setQuery] = useState<DeviceQuery>(DEFAULT_QUERY);
  const [sn, setSn] = useState('');
  const list = useQuery(queries.list(query));
  const counts = useQuery(queries.counts);
  const plants = useQuery(queries.plants);
  return {
    query,
    sn,
    setSn,
    list,
    counts,
    plants,
    filtered: query.status !== -1 || query.sn !== '' || query.plantId !== null,
    /** A new filter starts again at page 1. */
    update: (patch: Partial<DeviceQuery>) => setQuery((q) => ({ ...q, page: 1, ...patch })),
    setPage: (page: number, limit: number) => setQuery((q) => ({ ...q, page, limit })),
    reset: () => {
      setSn('');
      setQuery(DEFAULT_QUERY);
    },
  };
}

export type DeviceList<Row> = ReturnType<typeof useDeviceList<Row>>;
