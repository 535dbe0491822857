/** Pure helpers of the gateway step (wizard) and the Gateways section (edit screen). */
import { ErrorCode } from '@/shared/http/codes';
import { isApiError } from '@/shared/http/errors';
import type { Check } from '@/shared/validators';

/** SN: letters, digits and `-`, 6-32 characters (docs/api.md, Gateways). */
export const GATEWAY_SN = /^[A-Za-z0-9-]{6,32}$/;
/** Registration key: 4-32 visible ASCII characters. */
export const GATEWAY_KEY = /^[\x21-\x7e]{4,32}$/;

/** Codes the gateway calls answer next to the fields rather than as a toast. */
export const GATEWAY_FIELD_CODES = [ErrorCode.GatewayKeyWrong, ErrorCode.GatewayUsed];

export interface GatewayInput {
  sn: string;
  key: string;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The trimmed SN and key, or null when both are empty (the optional step was skipped). */
export function gatewayInput(sn: unknown, key: unknown): GatewayInput | null {
  const s = text(sn);
  const k = text(key);
  return s || k ? { sn: s, key: k } : null;
}

export function gatewaySn(value: unknown): Check {
  return GATEWAY_SN.test(text(value)) ? null : { key: 'plants.gateway.snFormat' };
}

export function gatewayKey(value: unknown): Check {
  return GATEWAY_KEY.test(text(value)) ? null : { key: 'plants.gateway.keyFormat' };
}

/**
 * Which field a server answer belongs to: 300 (SN or key incorrect; the server never tells
 * which) is shown at the key, 301 (already used) at the SN. Other codes have no field.
 */
export function gatewayErrorField(code: number): 'sn' | 'key' | null {
  if (code === ErrorCode.GatewayUsed) return 'sn';
  if (code === ErrorCode.GatewayKeyWrong) return 'key';
  return null;
}

/** Signal strength (RSSI) as shown in the table: `-71 dBm`, or null when unknown. */
export function signalText(signal: unknown): string | null {
  const n = typeof signal === 'string' && signal.trim() !== '' ? Number(signal) : signal;
  return typeof n === 'number' && Number.isFinite(n) ? `${Math.round(n)} dBm` : null;
}

/** Whether the user may add gateways to / unbind gateways from the plant. */
export function gatewayRights(plantPermission: readonly string[]): {
  add: boolean;
  unbind: boolean;
} {
  return {
    add: plantPermission.includes('gateway.add') || plantPermission.includes('station.edit'),
    unbind: plantPermission.includes('gateway.unbind'),
  };
}

/** The antd `setFields` entries that put a 300 / 301 answer next to its field, else null. */
export type GatewayFieldError = { name: 'gatewaySn' | 'gatewayKey'; errors: string[] };

export function gatewayFieldErrors(error: unknown): GatewayFieldError[] | null {
  if (!isApiError(error)) return null;
  const field = gatewayErrorField(error.code);
  if (!field) return null;
  const name = field === 'sn' ? 'gatewaySn' : 'gatewayKey';
  return [{ name, errors: [error.message] }];
}

/** Shows a 300 / 301 answer at its field; false when the error belongs to no field. */
export function showGatewayError(
  form: { setFields: (fields: GatewayFieldError[]) => void },
  error: unknown,
): boolean {
  const fields = gatewayFieldErrors(error);
  if (fields) form.setFields(fields);
  return fields !== null;
}
