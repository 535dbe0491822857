import { Limits } from '@/shared/api/limits.gen';
import { ErrorCode, isApiError } from '@/shared/http';
import { firmwareFile, firmwareVersion, lengthBetween, type Check } from '@/shared/validators';
import type { InverterTypeNode } from './api';

/**
 * The inverter type codes of the spec (section 3), by what they are; a label may also hold a
 * code that is not listed (a newer device), typed as a number.
 */
export const TYPE_CODES: readonly { code: number; kind: string }[] = [
  { code: 1, kind: 'sellingFirst' },
  { code: 10, kind: 'sellingFirst' },
  { code: 11, kind: 'sellingFirst' },
  { code: 2, kind: 'singleLvHybrid' },
  { code: 3, kind: 'micro' },
  { code: 94, kind: 'threeHvHybrid' },
  { code: 21, kind: 'singleHvHybrid' },
  { code: 93, kind: 'threeLvHybrid' },
  { code: 22, kind: 'singleHybrid' },
];

/** The largest inverter type code a label may hold. */
export const MAX_CODE = 9999;

/** The codes of a multi-select's values (typed free numbers included); null when one is not. */
export function parseCodes(values: readonly (string | number)[]): number[] | null {
  const codes: number[] = [];
  for (const v of values) {
    const s = String(v).trim();
    if (!/^\d{1,4}$/.test(s)) return null;
    const n = Number(s);
    if (n > MAX_CODE) return null;
    if (!codes.includes(n)) codes.push(n);
  }
  return codes;
}

const TYPE = Limits.InverterTypeRequest.name;

/** A type name: 1 to 32 characters (the server's limits). */
export const typeName = (value: unknown): Check =>
  lengthBetween(value, TYPE.minLength, TYPE.maxLength);

/** A firmware name: 1 to 64 characters (the server's limit). */
export const firmwareName = (value: unknown): Check =>
  lengthBetween(value, 1, Limits.FirmwareForm.name.maxLength);

export { firmwareFile, firmwareVersion };

/** What a parameter refusal (4) names after the catalogue message ("…: hasSubtype"), else null. */
export function refusalDetail(error: unknown): string | null {
  if (!isApiError(error, ErrorCode.InvalidParameter)) return null;
  const at = error.message.search(/[:：]\s*/);
  return at === -1 ? null : error.message.slice(at + 1).trim() || null;
}

/** The tree's refusals the server names, as locale keys. */
const TYPE_REFUSAL_KEYS: Record<string, string> = {
  hasSubtype: 'firmware.types.refusal.hasSubtype',
  primaryTitle: 'firmware.types.refusal.primaryTitle',
  nameAtTarget: 'firmware.types.refusal.nameAtTarget',
  hasFirmware: 'firmware.types.refusal.hasFirmware',
  name: 'firmware.types.refusal.name',
  codes: 'firmware.types.refusal.codes',
};

/**
 * The message of a refused tree change: a known detail translated (a code held by another
 * label names that code), else null (the caller shows the server's message).
 */
export function typeRefusal(error: unknown): { key: string; values?: { code: string } } | null {
  const detail = refusalDetail(error);
  if (!detail) return null;
  const [word, ...rest] = detail.split(/[\s:]+/);
  const key = word ? TYPE_REFUSAL_KEYS[word] : undefined;
  if (!key) return null;
  const code = /\d+/.exec(rest.join(' '))?.[0];
  return word === 'codes' && code ? { key, values: { code } } : { key };
}

/** The form field a firmware refusal points at, and its message (key and values). */
export interface FirmwareRefusal {
  field: 'name' | 'version' | 'file' | 'typeId';
  key: string;
  values?: Record<string, string>;
}

/** Where a refused firmware check or save points: 4000 name, 4002 version, 4 what it names. */
export function firmwareRefusal(error: unknown): FirmwareRefusal | null {
  if (isApiError(error, ErrorCode.FirmwareNameTaken))
    return { field: 'name', key: 'firmware.refusal.nameTaken' };
  if (isApiError(error, ErrorCode.FirmwareVersionTaken))
    return { field: 'version', key: 'firmware.refusal.versionTaken' };
  if (isApiError(error, ErrorCode.FileTooLarge))
    return { field: 'file', key: 'validation.fileSize', values: { max: '1.5' } };
  if (isApiError(error, ErrorCode.UnsupportedFile))
    return { field: 'file', key: 'firmware.refusal.fileContent' };
  const detail = refusalDetail(error);
  if (!detail) return null;
  const lower = /lower than the latest\s*\(([^)]*)\)/i.exec(detail);
  if (lower)
    return {
      field: 'version',
      key: 'validation.versionNotHigher',
      values: { latest: lower[1] ?? '' },
    };
  if (detail === 'version') return { field: 'version', key: 'validation.legalContent' };
  if (detail === 'name') return { field: 'name', key: 'firmware.refusal.invalid' };
  if (detail === 'file' || detail === 'fileName')
    return { field: 'file', key: 'firmware.refusal.fileContent' };
  if (detail === 'typeId' || detail === 'type')
    return { field: 'typeId', key: 'firmware.refusal.label' };
  return null;
}

/** The secondary labels of the tree, with their primary title, for the label picker. */
export function labelOptions(tree: readonly InverterTypeNode[]) {
  return tree
    .filter((p) => p.children.length > 0)
    .map((p) => ({
      label: p.name,
      title: p.name,
      options: p.children.map((c) => ({
        value: c.id,
        label: c.codes.length ? `${c.name} (${c.codes.join(', ')})` : c.name,
      })),
    }));
}

/** A node of the tree by id, and its primary title (itself for a primary). */
export function findType(
  tree: readonly InverterTypeNode[],
  id: number | null,
): { node: InverterTypeNode; primary: InverterTypeNode } | null {
  if (id === null) return null;
  for (const p of tree) {
    if (p.id === id) return { node: p, primary: p };
    const c = p.children.find((x) => x.id === id);
    if (c) return { node: c, primary: p };
  }
  return null;
}

/** A file's size as people read it. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}
