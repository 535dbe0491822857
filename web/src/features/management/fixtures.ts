import type { GatewayRow } from './api';

/** A gateway of the list as the server answers it; `over` changes some fields. */
export function gatewayRow(over: Partial<GatewayRow> = {}): GatewayRow {
  return {
    id: 7,
    sn: 'GW-STOCK-01',
    alias: '',
    devName: 'GW-STOCK-01',
    model: 'GW-200',
    commType: 1,
    commTypeName: 'WiFi',
    proto: 'modbus-default',
    protocolType: null,
    softVer: '1.2.0',
    hardVer: 'H1',
    status: 0,
    online: false,
    signal: null,
    lldt: null,
    lastMessageAt: null,
    uploadCycle: 300,
    signedInAt: null,
    plant: null,
    plantId: null,
    plantName: null,
    customer: null,
    customerId: null,
    customerName: null,
    key: null,
    createAt: '2026-01-05T10:00:00.000+00:00',
    updateAt: '2026-01-05T10:00:00Z',
    ...over,
  };
}
