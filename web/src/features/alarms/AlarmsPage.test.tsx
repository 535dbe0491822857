import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { screenWidth } from '@/test/media';
import { renderScreen } from '@/test/render';
import type { AlarmCase } from './api';
import AlarmsPage from './AlarmsPage';

const fault: AlarmCase = {
  id: 7,
  ruleId: 3,
  kind: 'event_code',
  severity: 'alarm',
  state: 'open',
  plantId: 8,
  plantName: 'North roof',
  deviceSn: 'INV-E1',
  subject: 'INV-E1/F13',
  value: 0,
  detail: { code: 'F13' },
  openedAt: '2027-06-21T12:00:30Z',
  seenAt: '2027-06-21T12:00:30Z',
  acknowledgedAt: null,
  acknowledgedBy: null,
  ackComment: null,
  closedAt: null,
};

const silent: AlarmCase = {
  ...fault,
  id: 5,
  kind: 'device_silent',
  severity: 'warning',
  state: 'acknowledged',
  deviceSn: 'BAT-1',
  subject: 'BAT-1',
  value: 4,
  detail: {},
  acknowledgedBy: 'ann@example.com',
  ackComment: 'On my way',
};

const page = (infos: AlarmCase[]) => ({ pageSize: 20, pageNumber: 1, total: infos.length, infos });

const serve = () =>
  fakeHttp({
    'GET /api/v1/alarm/cases': () => envelope(page([fault, silent])),
    'GET /api/v1/plants': () => envelope({ infos: [], total: 0, pageSize: 100, pageNumber: 1 }),
    'GET /api/v1/alarm/case/{id}': () =>
      envelope({
        case: fault,
        history: [
          {
            action: 'opened',
            at: '2027-06-21T12:00:30Z',
            severity: 'alarm',
            value: 0,
            account: null,
            comment: null,
          },
        ],
      }),
    'POST /api/v1/alarm/case/{id}/acknowledge': () =>
      envelope({ ...fault, state: 'acknowledged', acknowledgedBy: 'me@example.com' }),
  });

describe('AlarmsPage', () => {
  it('lists the cases with their device and value, and acknowledges one with a comment', async () => {
    screenWidth(1440);
    const api = serve();
    await renderScreen(<AlarmsPage />);
    const rows = () => screen.getByTestId('alarm-table').querySelectorAll('tr.ant-table-row');
    await waitFor(() => expect(rows().length).toBe(2));
    expect(api.calls('GET /api/v1/alarm/cases')[0]?.query).toMatchObject({ page: 1, limit: 20 });
    const first = rows()[0] as HTMLElement;
    expect(within(first).getByText('Device event')).toBeTruthy();
    expect(within(first).getByText('F13')).toBeTruthy();
    expect(within(first).getByText('INV-E1')).toBeTruthy();
    const second = rows()[1] as HTMLElement;
    expect(within(second).getByText('4 missed cycles')).toBeTruthy();
    // an acknowledged case has no button
    expect(within(second).queryByTestId('alarm-ack')).toBeNull();

    fireEvent.click(within(first).getByTestId('alarm-ack'));
    fireEvent.change(await screen.findByTestId('alarm-ack-comment'), {
      target: { value: ' Technician booked ' },
    });
    fireEvent.click(screen.getByTestId('alarm-ack-submit'));
    await waitFor(() =>
      expect(api.calls('POST /api/v1/alarm/case/{id}/acknowledge')[0]?.body).toEqual({
        comment: 'Technician booked',
      }),
    );
    expect(api.calls('POST /api/v1/alarm/case/{id}/acknowledge')[0]?.path).toBe(
      '/api/v1/alarm/case/7/acknowledge',
    );
  });

  it('opens a case history in a drawer', async () => {
    screenWidth(1440);
    serve();
    await renderScreen(<AlarmsPage />);
    const links = await screen.findAllByTestId('alarm-open');
    fireEvent.click(links[0] as HTMLElement);
    const items = await screen.findAllByTestId('alarm-history-item');
    expect(items.length).toBe(1);
    expect(within(items[0] as HTMLElement).getByText('Opened')).toBeTruthy();
  });

  it('opens the case a link names (the url of an alarm webhook) and forgets it on close', async () => {
    screenWidth(1440);
    const api = serve();
    const view = await renderScreen(<AlarmsPage />, { route: '/alarms?case=7' });
    const drawer = await screen.findByTestId('alarm-drawer');
    expect(await within(drawer).findByText('North roof')).toBeTruthy();
    expect(api.calls('GET /api/v1/alarm/case/{id}')[0]?.path).toBe('/api/v1/alarm/case/7');
    fireEvent.click(within(document.body).getByLabelText('Close'));
    await waitFor(() => expect(view.location()).toBe('/alarms'));
  });

  it('shows cards on a phone and filters by state', async () => {
    screenWidth(390);
    const api = serve();
    await renderScreen(<AlarmsPage />, { route: '/alarms?state=open&kind=event_code' });
    const cards = await screen.findAllByTestId('alarm-card');
    expect(cards.length).toBe(2);
    expect(within(cards[0] as HTMLElement).getByText('North roof · INV-E1')).toBeTruthy();
    expect(api.calls('GET /api/v1/alarm/cases')[0]?.query).toMatchObject({
      state: 'open',
      kind: 'event_code',
    });
  });

  it('says so when nothing is open', async () => {
    screenWidth(1440);
    fakeHttp({
      'GET /api/v1/alarm/cases': () => envelope(page([])),
      'GET /api/v1/plants': () => envelope({ infos: [], total: 0, pageSize: 100, pageNumber: 1 }),
    });
    await renderScreen(<AlarmsPage />);
    expect(await screen.findByText('No alarms. Everything is running as expected.')).toBeTruthy();
  });
});
