import './texts';
import type { i18n as I18n } from 'i18next';
import { MISSING } from '@/shared/format/number';
import type { AuditEntry } from './api';

/** A settings change as the server records it (`detail.changes`). */
export interface SettingChange {
  key: string;
  /** What a read showed before the write; absent in entries written before it was recorded. */
  old?: string | null;
  new: string;
  unit?: string | null;
}

type Translate = Pick<I18n, 't' | 'exists'>;

const SLOT_FIELDS: [RegExp, string][] = [
  [/^sellTime(\d)$/, 'time'],
  [/^sellTime(\d)Pac$/, 'power'],
  [/^sellTime(\d)Volt$/, 'volt'],
  [/^cap(\d)$/, 'cap'],
  [/^time(\d)on$/, 'gridCharge'],
  [/^genTime(\d)on$/, 'genCharge'],
];

/**
 * A setting's name as the settings screen labels it: its field label, or for time-of-use
 * values the slot and the column; the key itself when the screen has no label for it.
 */
export function settingLabel(key: string, i: Translate): string {
  if (i.exists(`settings.field.${key}`)) return i.t(`settings.field.${key}`);
  for (const [pattern, column] of SLOT_FIELDS) {
    const m = pattern.exec(key);
    if (m)
      return i.t('audit.setting.slot', {
        slot: m[1],
        field: i.t(`settings.tou.${column}`),
      });
  }
  const day = /^(\w+)On$/.exec(key);
  if (day && i.exists(`settings.day.${day[1]}`))
    return i.t('audit.setting.day', { day: i.t(`settings.day.${day[1]}`) });
  return key;
}

/** A setting's value in words: a choice's label, on/off, or the number with its unit. */
export function settingValue(
  key: string,
  value: unknown,
  unit: string | null | undefined,
  i: Translate,
): string {
  if (value === null || value === undefined || value === '') return MISSING;
  const text = String(value);
  if (i.exists(`settings.choice.${key}.${text}`)) return i.t(`settings.choice.${key}.${text}`);
  if (text === 'true' || text === 'false') return i.t(`audit.value.${text}`);
  // Time-of-use labels carry their unit ("Power (W)"): do not repeat it.
  const label = settingLabel(key, i);
  return unit && !label.includes(`(${unit})`) ? `${text} ${unit}` : text;
}

/** One change: "Max charge current: 100 A → 80 A" (or "… → 80 A" when the old value is unknown). */
export function describeChange(c: SettingChange, i: Translate): string {
  const label = settingLabel(c.key, i);
  const to = settingValue(c.key, c.new, c.unit, i);
  if (c.old === undefined || c.old === null) return i.t('audit.change.set', { label, to });
  return i.t('audit.change.from', { label, from: settingValue(c.key, c.old, c.unit, i), to });
}

/** A byte size as people read it (KB from 1 KB, MB from 1 MB). */
export function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

const str = (v: unknown): string | null =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : null;
const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** The firmware an upgrade sends, in words. */
function upgradeText(
  params: Record<string, unknown> | null,
  detail: Record<string, unknown>,
  i: Translate,
) {
  const version = str(params?.version);
  if (version) {
    const file = str(params?.fileName);
    const size = typeof params?.size === 'number' ? fileSize(params.size) : null;
    const extra = [file, size].filter(Boolean).join(', ');
    return extra
      ? i.t('audit.detail.upgradeFile', { version, extra })
      : i.t('audit.detail.upgrade', { version });
  }
  const firm = str(detail.firmId);
  return firm ? i.t('audit.detail.upgradeFirmware', { id: firm }) : null;
}

/**
 * What an entry did, as sentences in the reader's language: each settings change with its old
 * and new value, the firmware an upgrade sent or an upload added, the protocol or gateway a
 * change replaced, and why the portal refused it.
 */
export function describeAudit(
  e: Pick<AuditEntry, 'action' | 'target' | 'detail' | 'result'>,
  i: Translate,
): string[] {
  const detail = e.detail ?? {};
  const params = obj(detail.params);
  const lines: string[] = [];
  switch (e.action) {
    case 'setting.set': {
      const changes = Array.isArray(detail.changes) ? (detail.changes as SettingChange[]) : null;
      if (changes) lines.push(...changes.map((c) => describeChange(c, i)));
      else if (params)
        lines.push(
          ...Object.entries(params).map(([key, v]) =>
            describeChange({ key, new: String(v), unit: null }, i),
          ),
        );
      break;
    }
    case 'inverter.upgrade':
    case 'gateway.upgrade': {
      const text = upgradeText(params, detail, i);
      if (text) lines.push(text);
      break;
    }
    case 'firmware.upload': {
      const version = str(detail.version) ?? MISSING;
      const kind = str(detail.target) === 'gateway' ? 'gateway' : 'inverter';
      const type = str(detail.type);
      lines.push(
        type && kind === 'inverter'
          ? i.t('audit.detail.uploadInverterType', { version, file: e.target, type })
          : i.t(`audit.detail.upload.${kind}`, { version, file: e.target }),
      );
      break;
    }
    case 'gateway.replace':
      if (str(detail.new)) lines.push(i.t('audit.detail.replacedBy', { sn: str(detail.new) }));
      break;
    case 'gateway.protocol':
      lines.push(
        i.t('audit.detail.protocol', {
          from: str(detail.from) || MISSING,
          to: str(detail.to) || MISSING,
        }),
      );
      break;
    case 'gateway.settings': {
      const on = str(params?.remoteSettings);
      if (on !== null)
        lines.push(i.t(on === '1' ? 'audit.detail.remoteOn' : 'audit.detail.remoteOff'));
      break;
    }
    case 'gateway.uploadCycle': {
      const seconds = str(params?.uploadCycle);
      if (seconds !== null) lines.push(i.t('audit.detail.uploadCycle', { value: seconds }));
      break;
    }
    case 'inverter.debug':
    case 'gateway.debug':
      if (str(params?.frame)) lines.push(i.t('audit.detail.frame', { frame: str(params?.frame) }));
      break;
    default:
      break;
  }
  const reason = str(detail.reason);
  if (reason !== null && e.result === 'refused')
    lines.push(
      i.t('audit.detail.refused', {
        reason: i.exists(`audit.reason.${reason}`)
          ? i.t(`audit.reason.${reason}`)
          : i.t('audit.detail.code', { code: reason }),
      }),
    );
  return lines;
}
