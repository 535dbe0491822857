import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { eventDetailQuery, type EventItem } from './api';
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
  it('shows what the event means and what to do, with "--" while not recovered', () => {
    const client = new QueryClient({
      defaultOptions: { queries: { retry: false, staleTime: Infinity } },
    });
    client.setQueryData(eventDetailQuery(9).queryKey, {
      ...event,
      solution: 'Check the PV strings (fresh)',
    });
    render(
      <QueryClientProvider client={client}>
        <App>
          <EventDrawer event={event} onClose={() => {}} />
        </App>
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('event-meaning').textContent).toBe('DC over-voltage');
    // the drawer shows the event as read again by id (texts in the current language)
    expect(screen.getByText('Check the PV strings (fresh)')).toBeTruthy();
    expect(screen.getByText('Fault')).toBeTruthy();
    expect(screen.getByText('Open')).toBeTruthy();
    expect(screen.getByText('Europe/Madrid')).toBeTruthy();
    expect(screen.getByText('--')).toBeTruthy();
  }, 30_000);
});
