import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp, reply, type Routes } from '@/test/http';
import { aPlant } from '@/test/plant';
import { renderScreen } from '@/test/render';
import EnrollmentPlanPage from './EnrollmentPlanPage';
import EventPage from './EventPage';
import type { DrEvent, Enrollment } from './types';

const page = <T,>(infos: T[]) => ({ pageSize: 10, pageNumber: 1, total: infos.length, infos });

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
  programName: 'Evening peak relief',
  source: 'local',
  stationId: 3,
  stationName: 'Sunny Farm',
  status: 'accepted',
  reason: '',
  unsupportedReports: [],
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
  allowedActions: ['optOut', 'quit', 'reject'],
  createdAt: '2026-11-20T10:00:00Z',
  updatedAt: '2026-11-21T10:00:00Z',
};

const event: DrEvent = {
  id: 9,
  programId: 1,
  programName: 'Evening peak relief',
  source: 'local',
  name: 'Evening peak',
  priority: 0,
  startDate: '2026-11-25T17:00:00Z',
  duration: 120,
  endDate: '2026-11-25T19:00:00Z',
  kind: 'discharge',
  targetKw: 3,
  powerDischarge: 3,
  status: 'active',
  optedOut: false,
  plants: 2,
  createdAt: '2026-11-24T10:00:00Z',
};

/** A permission tree with the energy hub's route and the given buttons. */
function tree(buttons: string[]) {
  return {
    permission: null,
    type: 0,
    children: [
      {
        permission: 'application.center',
        type: 0,
        children: [
          {
            permission: 'energyhub.view',
            type: 0,
            children: buttons.map((b) => ({ permission: b, type: 1, children: [] })),
          },
        ],
      },
    ],
  };
}

/** An energy hub screen at `route` for a user holding `buttons`. */
const show = (element: ReactNode, buttons: string[], route = '/energyHub/enrollmentPlan') =>
  renderScreen(element, { route, permissions: tree(buttons) });

/** The server: the plant filter's one plant, no programmes, and `routes`. */
const serve = (routes: Routes) =>
  fakeHttp({
    'GET /api/v1/plants': () => envelope(page([aPlant({ id: 3, name: 'Sunny Farm' })])),
    'GET /api/v1/oadr/listProgram': () => envelope([]),
    ...routes,
  });

describe('energy hub screens', () => {
  it("shows a participant their enrollment's actions and asks before opting out", async () => {
    const api = serve({
      'GET /api/v1/oadr/enrollments': () => envelope(page([enrollment])),
      'POST /api/v1/oadr/enrollment/{id}/action': () =>
        envelope({ ...enrollment, optedOut: true, allowedActions: ['optIn', 'quit'] }),
    });
    const sent = () => api.calls('POST /api/v1/oadr/enrollment/{id}/action');
    await show(<EnrollmentPlanPage />, ['energyhub.enroll']);
    const table = await screen.findByTestId('hub-enrollments');
    await within(table).findByText('Sunny Farm');
    expect(within(table).getByTestId('hub-enrollment-status')).toHaveTextContent('Accepted');
    // the utility's "reject" is not the participant's to press; no programme tabs either
    expect(within(table).queryByTestId('hub-action-reject')).toBeNull();
    expect(screen.queryByTestId('hub-tabs')).toBeNull();
    expect(await screen.findByTestId('hub-enroll-new')).toBeInTheDocument();

    fireEvent.click(within(table).getByTestId('hub-action-optOut'));
    fireEvent.click(await screen.findByTestId('hub-confirm-ok'));
    await waitFor(() => expect(sent().map((r) => r.body)).toEqual([{ action: 'optOut' }]));
    expect(sent()[0]?.params).toEqual({ id: '5' });
  });

  it('gives the utility its tabs and a reject that needs a reason', async () => {
    serve({ 'GET /api/v1/oadr/enrollments': () => envelope(page([enrollment])) });
    await show(<EnrollmentPlanPage />, ['energyhub.enroll', 'sys.energyhub.edit']);
    expect(await screen.findByTestId('hub-tabs')).toHaveTextContent('Utility connections');
    const table = await screen.findByTestId('hub-enrollments');
    fireEvent.click(await within(table).findByTestId('hub-action-reject'));
    const confirm = await screen.findByTestId('hub-reject-ok');
    expect(confirm).toBeDisabled();
    fireEvent.change(screen.getByTestId('hub-reject-reason'), { target: { value: 'No meter' } });
    expect(confirm).toBeEnabled();
  });

  it('shows a failure with a retry, then the empty list', async () => {
    let lists = 0;
    serve({
      'GET /api/v1/oadr/enrollments': () =>
        lists++ === 0 ? reply(500) : envelope(page<Enrollment>([])),
    });
    await show(<EnrollmentPlanPage />, []);
    const problem = await screen.findByTestId('hub-enrollments-error');
    fireEvent.click(within(problem).getByRole('button'));
    expect(
      await screen.findByText('No plant is enrolled in a demand-response programme yet'),
    ).toBeInTheDocument();
    // without energyhub.enroll there is nothing to enroll with
    expect(screen.queryByTestId('hub-enroll-new')).toBeNull();
  });

  it('says what cancelling an event means for a participant', async () => {
    serve({ 'GET /api/v1/oadr/events': () => envelope(page([event])) });
    await show(<EventPage />, ['energyhub.event.cancel'], '/energyHub/event');
    const table = await screen.findByTestId('hub-events');
    await within(table).findByText('Evening peak');
    expect(table).toHaveTextContent('2 h');
    expect(table).toHaveTextContent('Discharge 3 kW');
    fireEvent.click(within(table).getByTestId('hub-event-cancel'));
    expect(
      (await screen.findAllByText('Opt your plants out of “Evening peak”?')).length,
    ).toBeGreaterThan(0);
    expect(screen.queryByTestId('hub-event-new')).toBeNull();
  });
});
