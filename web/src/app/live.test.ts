import { describe, expect, it } from 'vitest';
import { LIVE_QUERY, LIVE_REFRESH_MS } from '@/shared/api/live';
import { deviceListQueries, DEVICE_FILTERS } from '@/shared/devices/api';
import { defaults } from '@/shared/list/params';
import { batteryRealtimeQuery } from '@/features/batteries/api';
import {
  gatewayCountQuery,
  gatewayDetailQuery,
  gatewayListQuery,
  GATEWAY_FILTERS,
} from '@/features/gateways/api';
import {
  inverterCountsQuery,
  inverterDetailQuery,
  inverterListQuery,
  INVERTER_FILTERS,
  realtimeQuery as inverterRealtimeQuery,
} from '@/features/inverters/api';
import { METER } from '@/features/meters/api';
import {
  devicesQuery,
  flowQuery,
  plantHeadQuery,
  realtimeQuery as plantRealtimeQuery,
} from '@/features/overview/api';
import {
  gatewayDetailQuery as plantGatewayDevicesQuery,
  plantGatewaysQuery,
  plantListQuery,
  PLANT_FILTERS,
} from '@/features/plants/api';

// Every query of live state refreshes the same way, whichever screen shows it.
describe('live queries', () => {
  const meters = deviceListQueries(METER);
  const live = {
    'plant list': plantListQuery(defaults(PLANT_FILTERS, 10)),
    'plant gateways': plantGatewaysQuery(7),
    'plant gateway devices': plantGatewayDevicesQuery(7, 3),
    'plant header': plantHeadQuery(7),
    'plant realtime': plantRealtimeQuery(7),
    'plant flow': flowQuery(7),
    'plant devices': devicesQuery(7),
    'gateway list': gatewayListQuery(defaults(GATEWAY_FILTERS, 10)),
    'gateway counts': gatewayCountQuery,
    'gateway detail': gatewayDetailQuery('G1'),
    'inverter list': inverterListQuery(defaults(INVERTER_FILTERS, 10)),
    'inverter counts': inverterCountsQuery,
    'inverter header': inverterDetailQuery('INV1'),
    'inverter realtime': inverterRealtimeQuery('grid', 'INV1'),
    'meter list': meters.list(defaults(DEVICE_FILTERS, 10)),
    'meter counts': meters.counts,
    'battery realtime': batteryRealtimeQuery('B1'),
  };

  it.each(Object.entries(live))('%s refetches every LIVE_REFRESH_MS and on focus', (_, q) => {
    expect(q).toMatchObject(LIVE_QUERY);
    expect(q.refetchInterval).toBe(LIVE_REFRESH_MS);
  });
});
