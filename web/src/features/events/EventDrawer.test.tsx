import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { EventItem } from './api';
import { EventDrawer } from './EventDrawer';

const event: EventItem = {
  id: 9,
  occurrenceId: 9,
  code: 'F01',
  sn: 'INV-0001',
  alias: null,
  deviceType: 'inverter',
  type: 2,
  severity: 'fault',
  level: 3,
  status: 'open',
  occurTime: '2026-05-04 12:00:00',
  recoverTime: null,
  updateAt: '2026-05-04T10:00:00Z',
  meaning: 'DC over-voltage',
  solution: 'Check the PV strings',
  plantId: 3,
  plantName: 'Ann storage plant',
  timezone: 'Europe/Madrid',
};

describe('EventDrawer', () => {
  it('shows what the event means and what to do, with "--" while not recovered', async () => {
    const api = fakeHttp({
      'GET /api/v1/event/detail/{id}': () =>
        envelope({
          ...event,
          solution: 'Check the PV strings (fresh)',
          deviceCount: 1,
          openCount: 1,
          devices: [],
        }),
    });
    await renderScreen(<EventDrawer event={event} onClose={() => {}} />);
    expect(screen.getByTestId('event-meaning').textContent).toBe('DC over-voltage');
    // the drawer shows the event as read again by id (texts in the current language)
    expect(await screen.findByText('Check the PV strings (fresh)')).toBeTruthy();
    expect(api.calls('GET /api/v1/event/detail/{id}')[0]?.params).toEqual({ id: '9' });
    expect(screen.getByText('Fault')).toBeTruthy();
    expect(screen.getByText('Open')).toBeTruthy();
    expect(screen.getByText('Europe/Madrid')).toBeTruthy();
    expect(screen.getByText('--')).toBeTruthy();
  });
});
