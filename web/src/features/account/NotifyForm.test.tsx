import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { CurrentUser } from '@/shared/user';
import { NotifyForm } from './NotifyForm';

const user = { id: 1, email: 'owner@example.com' } as CurrentUser;

const QUIET_OFF = { quietEnabled: false, quietFrom: '22:00', quietTo: '07:00', quietZone: 'UTC' };

const serve = (saved: { enabled: boolean; email: string; offlineMinutes: number }) =>
  fakeHttp({
    'GET /api/v1/user/notify/enable': () => envelope({ ...QUIET_OFF, ...saved }),
    'POST /api/v1/user/notify': () => envelope(null),
  });

const show = () => renderScreen(<NotifyForm user={user} />);

/** The delay field, once the saved settings are in. */
const delayField = () => screen.findByLabelText('Offline delay (minutes)');

describe('NotifyForm offline delay', () => {
  it('shows the saved delay and saves a changed one with the settings', async () => {
    const api = serve({ enabled: true, email: 'owner@example.com', offlineMinutes: 45 });
    await show();
    const delay = await delayField();
    await waitFor(() => expect(delay).toHaveValue('45'));
    fireEvent.change(delay, { target: { value: '120' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('POST /api/v1/user/notify')).toHaveLength(1));
    expect(api.calls('POST /api/v1/user/notify')[0]?.body).toMatchObject({
      enabled: true,
      email: 'owner@example.com',
      offlineMinutes: 120,
      quietEnabled: false,
    });
  });

  it('refuses a delay outside 5 to 1440 minutes', async () => {
    const api = serve({ enabled: true, email: 'owner@example.com', offlineMinutes: 30 });
    await show();
    const delay = await delayField();
    await waitFor(() => expect(delay).toHaveValue('30'));
    fireEvent.change(delay, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please input 5 ~ 1440')).toBeInTheDocument();
    expect(api.calls('POST /api/v1/user/notify')).toHaveLength(0);
  });

  it('leaves the delay alone while the e-mails are off', async () => {
    serve({ enabled: false, email: '', offlineMinutes: 30 });
    await show();
    const delay = await delayField();
    await waitFor(() => expect(delay).toHaveValue('30'));
    expect(delay).toBeDisabled();
  });
});

describe('NotifyForm quiet hours', () => {
  it('saves quiet hours in the browser zone', async () => {
    const api = serve({ enabled: true, email: 'owner@example.com', offlineMinutes: 30 });
    await show();
    const on = await screen.findByTestId('quiet-switch');
    const from = screen.getByTestId('quiet-from');
    await waitFor(() => expect(from).toHaveValue('22:00'));
    expect(from).toBeDisabled();
    fireEvent.click(on);
    await waitFor(() => expect(from).toBeEnabled());
    fireEvent.change(from, { target: { value: '23:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('POST /api/v1/user/notify')).toHaveLength(1));
    expect(api.calls('POST /api/v1/user/notify')[0]?.body).toMatchObject({
      quietEnabled: true,
      quietFrom: '23:30',
      quietTo: '07:00',
      quietZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });
});
