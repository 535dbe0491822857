import type { Schemas } from './schema';

/** An item of GET /api/v1/gateways (API conventions plus plant and customer). */
export type GatewayRow = Schemas['Gateway'];

/** A device behind a gateway (GET /api/v1/gateway/{id}). */
export type GatewayDevice = Schemas['GatewayDevice'];

/** GET /api/v1/gateway/{id}: the list item, its devices, and the key for those who may edit it. */
export type GatewayDetail = Schemas['GatewayDetail'];
