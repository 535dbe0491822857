import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatSize, localTime, prettyPayload } from './format';
import { messageParams, toUtc, MESSAGE_FILTERS } from './api';
import { defaults } from '@/shared/list/params';

describe('prettyPayload', () => {
  it('indents a JSON document', () => {
    expect(prettyPayload('{"v":1,"p":[1,2]}')).toEqual({
      text: '{\n  "v": 1,\n  "p": [\n    1,\n    2\n  ]\n}',
      json: true,
    });
  });

  it('shows a cut or non-JSON payload as it came', () => {
    expect(prettyPayload('{"v":1,"p":')).toEqual({ text: '{"v":1,"p":', json: false });
    expect(prettyPayload('01 03 04 00 0A')).toEqual({ text: '01 03 04 00 0A', json: false });
    expect(prettyPayload('')).toEqual({ text: '', json: false });
  });
});

describe('formatSize', () => {
  it('names bytes, kibibytes and mebibytes', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(1023)).toBe('1023 B');
    expect(formatSize(65536)).toBe('64.0 KiB');
    expect(formatSize(3 * 1024 * 1024)).toBe('3.0 MiB');
    expect(formatSize(-1)).toBe('--');
  });
});

describe('localTime', () => {
  it('reads bare times as UTC and shows them in the reader zone', () => {
    const expected = dayjs(Date.UTC(2026, 10, 25, 7, 30, 5)).format('YYYY-MM-DD HH:mm:ss');
    expect(localTime('2026-11-25 07:30:05')).toBe(expected);
    expect(localTime('2026-11-25T07:30:05Z')).toBe(expected);
    expect(localTime(Date.UTC(2026, 10, 25, 7, 30, 5))).toBe(expected);
  });

  it('shows a missing or unreadable time as missing', () => {
    expect(localTime(null)).toBe('--');
    expect(localTime('')).toBe('--');
    expect(localTime('soon')).toBe('--');
  });
});

describe('messageParams', () => {
  it('sends the gateway, the filters set and the range as UTC', () => {
    const q = {
      ...defaults(MESSAGE_FILTERS, 20),
      sn: ' GW1 ',
      direction: 'down' as const,
      kind: 'command',
      from: '2026-11-25T08:00',
      to: '2026-11-25T09:15',
    };
    expect(messageParams(q)).toEqual({
      sn: 'GW1',
      page: 1,
      limit: 20,
      direction: 'down',
      kind: 'command',
      sdate: toUtc('2026-11-25T08:00'),
      edate: toUtc('2026-11-25T09:15', true),
    });
    expect(toUtc('2026-11-25T08:00')).toBe(
      new Date(2026, 10, 25, 8, 0, 0).toISOString().slice(0, 19).replace('T', ' '),
    );
    expect(toUtc('2026-11-25T09:15', true).endsWith(':59')).toBe(true);
  });

  it('leaves out what is not set and keeps the page size within the limit', () => {
    const q = { ...defaults(MESSAGE_FILTERS, 20), sn: 'GW1', limit: 500, from: 'garbage' };
    expect(messageParams(q)).toEqual({ sn: 'GW1', page: 1, limit: 100 });
  });
});
