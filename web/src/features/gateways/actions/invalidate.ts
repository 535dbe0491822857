import type { QueryClient } from '@tanstack/react-query';
import { gatewayKeys, overviewKeys, plantKeys } from '@/shared/api/keys';

/**
 * What a restart, a replacement or a protocol change makes stale: the gateway screens, and the
 * plant's views of its gateways (the edit screen's gateway list with each gateway's devices,
 * the overview's device card). `plantId` null: gateways of any plant (a batch), so every
 * plant's views.
 */
export async function invalidateGateways(client: QueryClient, plantId: number | null) {
  const plantViews =
    plantId === null
      ? [plantKeys.allGateways, overviewKeys.allDevices]
      : [plantKeys.gateways(plantId), overviewKeys.devices(plantId)];
  await Promise.all(
    [gatewayKeys.all, ...plantViews].map((queryKey) => client.invalidateQueries({ queryKey })),
  );
}
