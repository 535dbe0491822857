/** An item of GET /api/v1/gateways (API conventions plus plant and customer). */
export interface GatewayRow {
  id: number;
  sn: string;
  /** Always null in the list: the registration key is a secret (see GatewayDetail). */
  key: string | null;
  alias: string;
  status: number;
  /** 1 WiFi, 2 GPRS, 3 4G, 4 Ethernet, 5 RS485; null otherwise (the name is `commTypeName`). */
  commType: number | null;
  commTypeName: string;
  signal: number | null;
  softVer: string;
  hardVer: string;
  updateAt: string;
  /** Always null: third-party clients read it as a number; the protocol config is `proto`. */
  protocolType: null;
  proto: string;
  model: string;
  /** The time of the gateway's newest message, UTC `YYYY-MM-DD HH:mm:ss`. */
  lldt: string | null;
  /** The same as an ISO time (`YYYY-MM-DDTHH:mm:ssZ`). */
  lastMessageAt?: string | null;
  uploadCycle: number;
  devName: string;
  online: boolean;
  plantId: number | null;
  plantName: string | null;
  plant: { id: number; name: string | null } | null;
  customerId: number | null;
  customerName: string | null;
  createAt: string;
}

/** A device behind a gateway (GET /api/v1/gateway/{id}). */
export interface GatewayDevice {
  id: number;
  sn: string;
  family: 'inverter' | 'battery' | 'meter' | 'weather_station' | string;
  type: number;
  alias: string;
  model: string;
  status: number;
  online: boolean;
  parentSn: string | null;
  lastSeen: string | null;
}

/** GET /api/v1/gateway/{id}. */
export interface GatewayDetail extends GatewayRow {
  devices: GatewayDevice[];
  /** Whether the caller may read and rotate the key; only then do `key`, `keyPending` and
   * `keyChangedAt` come. */
  keyEditable: boolean;
  keyPending?: boolean;
  keyChangedAt?: string | null;
}
