import { Limits } from '@/shared/api/limits.gen';
import type { Check } from '@/shared/validators';
import type { NewGateway } from './api';

/** SN: letters, digits and `-`, 6-32 characters (the server's rule). */
export const GATEWAY_SN = new RegExp(
  `^[A-Za-z0-9-]{${Limits.CreateRequest.sn.minLength},${Limits.CreateRequest.sn.maxLength}}$`,
);
/**
 * A registration key being set: 8-32 visible ASCII characters, at least 4 of them different,
 * and not a straight run such as `12345678` (the server's rule for new keys; older keys of 4
 * characters still claim and sign in).
 */
export const GATEWAY_KEY = new RegExp(
  `^[\\x21-\\x7e]{${Limits.CreateRequest.key.minLength},${Limits.CreateRequest.key.maxLength}}$`,
);
const KEY_DISTINCT = 4;

function straightRun(key: string): boolean {
  const steps = [...key].slice(1).map((c, i) => c.charCodeAt(0) - key.charCodeAt(i));
  return steps.every((s) => s === 1) || steps.every((s) => s === -1);
}

/** The fields' longest lengths, in characters (the server's limits). */
export const LIMITS = {
  sn: Limits.CreateRequest.sn.maxLength,
  key: Limits.CreateRequest.key.maxLength,
  model: Limits.CreateRequest.model.maxLength,
  commType: Limits.CreateRequest.commType.maxLength,
  protocol: Limits.CreateRequest.protocol.maxLength,
} as const;

/** How many gateways one batch registers. */
export const BATCH_MAX = Limits.RegisterBatchRequest.gateways.maxItems;

/** Communication types offered (free text is allowed too, up to 16 characters). */
export const COMM_TYPES = ['wifi', '4g', 'ethernet', 'rs485', 'gprs'] as const;

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

export function gatewaySn(value: unknown): Check {
  return GATEWAY_SN.test(trimmed(value)) ? null : { key: 'sysGateways.rule.sn' };
}

export function gatewayKey(value: unknown): Check {
  const key = trimmed(value);
  const strong = GATEWAY_KEY.test(key) && new Set(key).size >= KEY_DISTINCT && !straightRun(key);
  return strong ? null : { key: 'sysGateways.rule.key' };
}

/** An optional field of at most `max` characters. */
export const upTo =
  (max: number) =>
  (value: unknown): Check =>
    // characters as the server counts them (code points, not UTF-16 units)
    [...trimmed(value)].length <= max ? null : { key: 'sysGateways.rule.tooLong', values: { max } };

/** The first problem of a gateway's fields, or null. */
export function gatewayProblem(g: NewGateway): Check {
  return (
    gatewaySn(g.sn) ??
    gatewayKey(g.key) ??
    upTo(LIMITS.model)(g.model ?? '') ??
    upTo(LIMITS.commType)(g.commType ?? '') ??
    upTo(LIMITS.protocol)(g.protocol ?? '')
  );
}

/** A pasted line: its number (from 1), the gateway it names, and what is wrong with it. */
export interface PastedLine {
  line: number;
  gateway: NewGateway;
  problem: Check;
}

/**
 * Lines "SN,KEY[,model,commType,protocol]" (commas, semicolons or tabs, as a spreadsheet
 * copies them); blank lines skipped. A repeated SN is a problem of the later line, which the
 * server would answer as a duplicate anyway.
 */
export function parseLines(text: string): PastedLine[] {
  const seen = new Set<string>();
  const out: PastedLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    const [sn = '', key = '', model = '', commType = '', protocol = ''] = raw
      .split(/[,;\t]/)
      .map((c) => c.trim());
    const gateway: NewGateway = { sn, key, model, commType, protocol };
    let problem = gatewayProblem(gateway);
    const id = sn.toUpperCase();
    if (!problem && seen.has(id)) problem = { key: 'sysGateways.rule.repeated' };
    seen.add(id);
    out.push({ line: i + 1, gateway, problem });
  });
  return out;
}
