import { renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import { EnrollmentDrawer } from './EnrollmentDrawer';
import type { Enrollment, Vtn } from './types';
import { usePower } from './useDuration';
import { VtnTab } from './VtnTab';

const vtn: Vtn = {
  id: 1,
  name: 'Utility',
  url: 'https://vtn.example.com/openadr3/3.1.0',
  version: '3.1.0',
  venName: 'portal',
  venId: 'ven-1',
  pollSeconds: 30,
  enabled: true,
  lastSyncAt: '2026-11-29T03:00:00Z',
  lastError: '',
  refusedEvents: [
    { program: 'prog-1', id: 'negative', reason: 'interval 0 has a negative duration' },
    { program: 'prog-1', id: 'no-start', reason: 'missing field `start`' },
  ],
  notifications: 'polling',
  notificationsReason: 'notOffered',
  notificationsNote: 'the VTN offers no webhooks',
  clientIdHint: '9876',
  hasSecret: true,
};

const address = {
  country: 'DE',
  region: 'Bavaria',
  locality: 'Munich',
  extendedAddress: '',
  streetAddress: 'Hauptstr. 1',
  postalCode: '80331',
};

const enrollment: Enrollment = {
  id: 5,
  programId: 1,
  programName: 'Export cap',
  source: 'vtn',
  stationId: 3,
  stationName: 'Sunny Farm',
  status: 'accepted',
  reason: '',
  unsupportedReports: ['BASELINE', 'OPERATING_STATE'],
  optedOut: false,
  sourceAccountNumber: '1234567',
  utilityAccountNumber: 'acct-17',
  firstName: 'Olivia',
  lastName: 'Owner',
  email: 'olivia@example.com',
  serviceAddress: address,
  mailingAddress: address,
  participationLevel: 80,
  timeZone: 'Europe/Berlin',
  devices: [],
  allowedActions: ['optOut', 'quit'],
  createdAt: '2026-11-20T10:00:00Z',
  updatedAt: '2026-11-21T10:00:00Z',
};

const show = (element: ReactNode) =>
  renderScreen(element, { permissions: { permission: null, type: 0, children: [] } });

describe('energy hub: what a utility server sent that the portal could not use', () => {
  it('lists the events the last sync skipped, each with its reason', async () => {
    fakeHttp({ 'GET /api/v1/oadr/vtns': () => envelope([vtn]) });
    await show(<VtnTab />);
    const list = await screen.findByTestId('hub-vtn-refused');
    expect(list).toHaveTextContent('Skipped at the last sync: 2');
    expect(list).toHaveTextContent('negative: interval 0 has a negative duration');
    expect(list).toHaveTextContent('no-start: missing field `start`');
    expect(screen.getByTestId('hub-vtn-notify')).toHaveTextContent(
      "Polling only: the utility's server offers no webhooks",
    );
  });

  it('shows nothing skipped when everything was read', async () => {
    fakeHttp({
      'GET /api/v1/oadr/vtns': () =>
        envelope([
          { ...vtn, refusedEvents: [], notifications: 'webhook', notificationsReason: '' },
        ]),
    });
    await show(<VtnTab />);
    await screen.findByText('Utility');
    expect(screen.queryByTestId('hub-vtn-refused')).toBeNull();
    expect(screen.getByTestId('hub-vtn-notify')).toHaveTextContent('Webhooks on');
  });

  it("tells the enrollment's reader which asked-for reports are not sent", async () => {
    const api = fakeHttp({
      'GET /api/v1/oadr/enrollment/{id}': () => envelope(enrollment),
    });
    await show(<EnrollmentDrawer id={5} onClose={() => {}} />);
    const alert = await screen.findByTestId('hub-enrollment-unsupported-reports');
    expect(alert).toHaveTextContent('BASELINE, OPERATING_STATE');
    expect(api.calls('GET /api/v1/oadr/enrollment/{id}')[0]?.params).toEqual({ id: '5' });
  });

  it('says a charge, or a hold at 0 kW', () => {
    const { result } = renderHook(() => usePower());
    expect(result.current({ kind: 'charge', targetKw: 2 })).toBe('Charge 2 kW');
    expect(result.current({ kind: 'charge', targetKw: 0 })).toBe('Hold the battery charge');
    expect(result.current({ kind: 'exportLimit', targetKw: 3 })).toBe('Export ≤ 3 kW');
  });
});
