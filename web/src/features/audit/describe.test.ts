import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage, i18n } from '@/shared/i18n';
import type { AuditAction, AuditResult } from './api';
import { describeAudit, fileSize, settingLabel, settingValue } from './describe';

const entry = (
  action: AuditAction,
  detail: Record<string, unknown>,
  result: AuditResult = 'sent',
  target = 'INV1',
) => ({
  action,
  target,
  detail,
  result,
});

describe('audit details in words', () => {
  afterEach(() => changeLanguage('en'));

  it('names a setting as the settings screen does and shows old -> new with the unit', () => {
    const lines = describeAudit(
      entry('setting.set', {
        kind: 'set_params',
        params: { batteryMaxCurrentCharge: '80', sysWorkMode: '0' },
        changes: [
          { key: 'batteryMaxCurrentCharge', old: '100', new: '80', unit: 'A' },
          { key: 'sysWorkMode', old: '2', new: '0', unit: '' },
        ],
      }),
      i18n,
    );
    expect(lines).toEqual([
      'Max charge current: 100 A → 80 A',
      'Work mode: Zero export to CT → Selling first',
    ]);
    // never the raw key=value
    expect(lines.join(' ')).not.toContain('batteryMaxCurrentCharge');
  });

  it('speaks the reader’s language', async () => {
    await changeLanguage('es');
    const change = [{ key: 'batteryMaxCurrentCharge', old: '100', new: '80', unit: 'A' }];
    expect(describeAudit(entry('setting.set', { changes: change }), i18n)).toEqual([
      'Corriente máx. de carga: 100 A → 80 A',
    ]);
    await changeLanguage('zh');
    expect(describeAudit(entry('setting.set', { changes: change }), i18n)).toEqual([
      '最大充电电流：100 A → 80 A',
    ]);
  });

  it('reads entries written before old values were recorded', () => {
    expect(
      describeAudit(
        entry('setting.set', { params: { zeroExportPower: '50', mondayOn: 'false' } }),
        i18n,
      ),
    ).toEqual(['Zero export power set to 50', 'Time of use on Monday set to Off']);
  });

  it('labels time-of-use values by slot and column without repeating the unit', () => {
    expect(settingLabel('sellTime2Pac', i18n)).toBe('Time of use, slot 2: Power (W)');
    expect(settingValue('sellTime2Pac', '500', 'W', i18n)).toBe('500');
    expect(settingLabel('time3on', i18n)).toBe('Time of use, slot 3: Grid charge');
    expect(settingValue('time3on', 'true', '', i18n)).toBe('On');
    expect(settingLabel('somethingNew', i18n)).toBe('somethingNew');
  });

  it('tells firmware uploads and upgrades as sentences', () => {
    expect(
      describeAudit(
        entry(
          'firmware.upload',
          { firmId: 7, version: '2.0.1', target: 'inverter', type: 94 },
          'succeeded',
          'inv94-2.0.1.bin',
        ),
        i18n,
      ),
    ).toEqual(['Inverter firmware 2.0.1 for type 94 uploaded (inv94-2.0.1.bin)']);
    expect(
      describeAudit(
        entry(
          'firmware.upload',
          { firmId: 8, version: '1.4', target: 'gateway', type: null },
          'succeeded',
          'gw-1.4.bin',
        ),
        i18n,
      ),
    ).toEqual(['Gateway firmware 1.4 uploaded (gw-1.4.bin)']);
    const upgrade = describeAudit(
      entry('inverter.upgrade', {
        kind: 'upgrade',
        params: { version: '2.0.1', firmId: 7, fileName: 'inv94-2.0.1.bin', size: 204800 },
        commandId: 3,
      }),
      i18n,
    );
    expect(upgrade).toEqual(['To firmware 2.0.1 (inv94-2.0.1.bin, 200 KB)']);
    expect(upgrade.join(' ')).not.toMatch(/firmId|fileName=/);
  });

  it('says why the portal refused an action', () => {
    expect(
      describeAudit(
        entry('inverter.upgrade', { kind: 'upgrade', firmId: 7, reason: 602 }, 'refused'),
        i18n,
      ),
    ).toEqual(['Firmware no. 7', 'Refused: the device was offline']);
    expect(describeAudit(entry('inverter.boot', { reason: 999 }, 'refused'), i18n)).toEqual([
      'Refused: code 999',
    ]);
    expect(
      describeAudit(entry('gateway.protocol', { from: 'a', to: 'b' }, 'succeeded'), i18n),
    ).toEqual(['Protocol: a → b']);
  });

  it('tells the upload cycle a gateway was sent', () => {
    const sent = entry('gateway.uploadCycle', { params: { uploadCycle: '60' } }, 'sent', 'GW1');
    expect(describeAudit(sent, i18n)).toEqual(['Upload cycle: 60 s']);
    expect(describeAudit(entry('gateway.uploadCycle', {}), i18n)).toEqual([]);
  });

  it('formats sizes', () => {
    expect([fileSize(512), fileSize(2048), fileSize(1_572_864)]).toEqual([
      '512 B',
      '2 KB',
      '1.5 MB',
    ]);
  });
});
