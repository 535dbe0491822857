import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { VersionNote } from './api';
import { noteBody, noteValues, releaseMoment, someContent, versionLabel } from './noteForm';

const note: VersionNote = {
  id: 7,
  version: 'V250120',
  type: 2,
  content: 'Plants',
  contentEn: 'Plants',
  contentCn: '电站',
  contentEs: 'Plantas',
  announcer: 'root',
  releaseTime: '2025-01-20 08:30:00',
  createAt: '2025-01-21T00:00:00.000+00:00',
};

describe('the release note form rules', () => {
  it('accepts labels such as V250120 and 2.4.1-rc_1, refuses spaces, symbols and long ones', () => {
    expect(versionLabel('V250120')).toBeNull();
    expect(versionLabel(' 2.4.1-rc_1 ')).toBeNull();
    expect(versionLabel('V 1')?.key).toBe('releaseNotes.rules.version');
    expect(versionLabel('V1!')).not.toBeNull();
    expect(versionLabel('V'.repeat(21))).toEqual({
      key: 'releaseNotes.rules.version',
      values: { max: 20 },
    });
  });

  it('wants the text in Chinese or English, either is enough', () => {
    expect(someContent('电站', '')).toBeNull();
    expect(someContent('', 'Plants')).toBeNull();
    expect(someContent('  ', undefined)?.key).toBe('releaseNotes.rules.content');
  });

  it('reads the release time as UTC and falls back to the creation time', () => {
    expect(releaseMoment(note)?.toISOString()).toBe('2025-01-20T08:30:00.000Z');
    expect(releaseMoment({ releaseTime: '', createAt: note.createAt })?.toISOString()).toBe(
      '2025-01-21T00:00:00.000Z',
    );
    expect(releaseMoment({ releaseTime: '', createAt: '' })).toBeNull();
  });

  it('publishes trimmed values, now when no time is picked', () => {
    const body = noteBody({
      version: ' V3 ',
      type: 1,
      releaseTime: null,
      contentCn: ' 新 ',
      contentEn: '',
    });
    expect(body).toEqual({
      version: 'V3',
      type: 1,
      contentCn: '新',
      contentEn: '',
      releaseTime: null,
    });
  });

  it('edits by id and keeps the Spanish text and the picked time', () => {
    const values = noteValues(note);
    expect(values.version).toBe('V250120');
    const body = noteBody({ ...values, contentEn: 'Fixed' }, note);
    expect(body).toMatchObject({ id: 7, contentEs: 'Plantas', contentEn: 'Fixed', type: 2 });
    expect(body.releaseTime).toBe(dayjs('2025-01-20T08:30:00Z').valueOf());
    expect(noteValues()).toMatchObject({ version: '', type: 1, releaseTime: null });
  });
});
