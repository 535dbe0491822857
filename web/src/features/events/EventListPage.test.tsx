import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { screenWidth } from '@/test/media';
import { renderScreen } from '@/test/render';
import type { EventItem, MessageItem, Occurrence } from './api';
import EventListPage from './EventListPage';
import { MessageBell } from './MessageBell';

const devices = Array.from({ length: 10 }, (_, i) => ({
  id: 100 + i,
  sn: `ROOF-INV${String(i).padStart(2, '0')}`,
  alias: null,
  deviceType: 'inverter' as const,
  type: 94,
  status: i < 3 ? ('open' as const) : ('closed' as const),
  occurTime: '2026-05-04 12:00:00',
  recoverTime: i < 3 ? null : '2026-05-04 12:30:00',
}));

const outage: Occurrence = {
  id: 100,
  occurrenceId: 100,
  code: 'F35',
  sn: 'ROOF-INV00',
  alias: null,
  deviceType: 'inverter',
  type: 94,
  severity: 'warning',
  level: 2,
  status: 'open',
  occurTime: '2026-05-04 12:00:00',
  recoverTime: null,
  updateAt: '2026-05-04T10:00:00Z',
  meaning: 'No AC grid',
  solution: 'Check the grid',
  plantId: 8,
  plantName: 'Commercial roof',
  timezone: 'Europe/Madrid',
  deviceCount: 10,
  openCount: 3,
  devices,
};

const notice: EventItem = {
  ...outage,
  id: 90,
  occurrenceId: 90,
  code: 'F13',
  severity: 'info',
  level: 1,
  status: 'closed',
  recoverTime: '2026-05-04 11:00:00',
  meaning: 'Working mode changed',
  deviceCount: 1,
  openCount: 0,
  devices: [{ ...nth(devices, 0), id: 90, status: 'closed', recoverTime: '2026-05-04 11:00:00' }],
};

/** The `i`th element, failing the test when it is missing. */
function nth<T>(list: ArrayLike<T>, i: number): T {
  const v = list[i];
  if (v === undefined) throw new Error(`no element ${i}`);
  return v;
}

describe('EventListPage', () => {
  /** The server of the list: the two occurrences, no plants to filter by, the outage's detail. */
  const serve = () =>
    fakeHttp({
      'GET /api/v1/events': () =>
        envelope({
          nextToken: null,
          record: [outage, notice],
          total: 2,
          pageSize: 20,
          pageNumber: 1,
        }),
      'GET /api/v1/plants': () => envelope({ infos: [], total: 0, pageSize: 100, pageNumber: 1 }),
      'GET /api/v1/event/detail/{id}': () => envelope(outage),
    });

  it('shows one row per occurrence with its devices, and each severity by name', async () => {
    screenWidth(1440);
    const api = serve();
    await renderScreen(<EventListPage />);
    const rowsOf = () => screen.getByTestId('event-table').querySelectorAll('tr.ant-table-row');
    await waitFor(() => expect(rowsOf().length).toBe(2));
    // the first page of 20, any filter left out
    expect(api.calls('GET /api/v1/events')[0]?.query).toMatchObject({ page: 1, limit: 20 });
    const rows = rowsOf();
    const first = nth(rows, 0) as HTMLElement;
    const second = nth(rows, 1) as HTMLElement;
    expect(within(first).getByText('Warning')).toBeTruthy();
    expect(within(first).getByText('+9 more')).toBeTruthy();
    expect(within(first).getByText('Open (3 of 10)')).toBeTruthy();
    expect(within(first).getByText('(Europe/Madrid)')).toBeTruthy();
    expect(within(second).getByText('Notice')).toBeTruthy();
    expect(within(second).queryByText('Fault')).toBeNull();
    expect(within(second).queryByTestId('event-more-devices')).toBeNull();

    // the devices of the occurrence, each with its own state
    fireEvent.click(within(first).getByTestId('event-more-devices'));
    const drawer = await screen.findByTestId('event-devices');
    const deviceRows = drawer.querySelectorAll('tr.ant-table-row');
    expect(deviceRows.length).toBe(10);
    expect(within(nth(deviceRows, 9) as HTMLElement).getByText('ROOF-INV09')).toBeTruthy();
    expect(within(nth(deviceRows, 9) as HTMLElement).getByText('Recovered')).toBeTruthy();
  });

  it('stacks each occurrence in one cell on a phone', async () => {
    screenWidth(390);
    serve();
    await renderScreen(<EventListPage />);
    const cards = await screen.findAllByTestId('event-card');
    expect(cards.length).toBe(2);
    const first = nth(cards, 0);
    expect(within(first).getByText('Warning')).toBeTruthy();
    expect(within(first).getByText('+9 more')).toBeTruthy();
    expect(within(first).getByText(/2026-05-04 12:00:00 \(Europe\/Madrid\)/)).toBeTruthy();
    expect(within(nth(cards, 1)).getByText('Notice')).toBeTruthy();
    // no column headers beyond the one
    expect(screen.queryByText('Device type')).toBeNull();
  });
});

describe('MessageBell', () => {
  it('counts what needs attention and marks recovered messages as recovered', async () => {
    const message = (id: number, resolved: boolean): MessageItem => ({
      id,
      title: `Commercial roof ROOF-INV00${resolved ? '' : ' +9'}`,
      content: 'F35 No AC grid',
      type: 'warning',
      status: resolved ? 1 : 0,
      resolved,
      createAt: '2026-05-04T10:00:00.000+00:00',
      plantId: 8,
      sn: 'ROOF-INV00',
      source: 'event',
      event: { ...outage, id, status: resolved ? 'closed' : 'open' },
    });
    fakeHttp({
      'GET /api/v1/message/count': () => envelope(1),
      'GET /api/v1/messages': () =>
        envelope({
          pageSize: 10,
          pageNumber: 1,
          total: 2,
          infos: [message(100, false), message(50, true)],
        }),
    });
    await renderScreen(<MessageBell />);
    await waitFor(() => expect(screen.getByTestId('message-count').textContent).toContain('1'));
    fireEvent.click(screen.getByTestId('message-bell'));
    const items = await screen.findAllByTestId('message-item');
    expect(items.map((i) => i.getAttribute('data-unread'))).toEqual(['true', 'false']);
    expect(within(nth(items, 1)).getByTestId('message-resolved').textContent).toBe('Recovered');
    expect(within(nth(items, 0)).queryByTestId('message-resolved')).toBeNull();
    expect(within(nth(items, 0)).getByText(/Warning · F35 No AC grid/)).toBeTruthy();
  });
});
