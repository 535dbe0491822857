import { useQuery } from '@tanstack/react-query';
import { useDraft } from '@/shared/hooks/useDraft';
import { useListQuery } from '@/shared/list/useListQuery';
import { DEVICE_FILTERS, deviceListQueries } from './api';
import type { DeviceKind } from './kind';

/** The state of a device list screen: the query (in the URL), the SN being typed, the requests. */
export function useDeviceList<Row>(kind: DeviceKind<Row>) {
  const queries = deviceListQueries<Row>(kind);
  const list = useListQuery(DEVICE_FILTERS, queries.list);
  const [sn, setSn] = useDraft(list.query.sn);
  const counts = useQuery(queries.counts);
  const plants = useQuery(queries.plants);
  return { ...list, sn, setSn, counts, plants };
}

export type DeviceList<Row> = ReturnType<typeof useDeviceList<Row>>;
