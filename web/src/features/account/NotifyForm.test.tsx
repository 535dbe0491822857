import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { CurrentUser } from '@/shared/user';
import { NotifyForm } from './NotifyForm';

const SLOW = { timeout: 10_000 };
const user = { id: 1, email: 'owner@example.com' } as CurrentUser;

const serve = (saved: { enabled: boolean; email: string; offlineMinutes: number }) =>
  fakeHttp({
    'GET /api/v1/user/notify/enable': () => envelope(saved),
    'POST /api/v1/user/notify': () => envelope(null),
  });

const show = () => renderScreen(<NotifyForm user={user} />);

/** The delay field, once the saved settings are in. */
const delayField = () => screen.findByLabelText('Offline delay (minutes)', {}, SLOW);

describe('NotifyForm offline delay', () => {
  it('shows the saved delay and saves a changed one with the settings', async () => {
    const api = serve({ enabled: true, email: 'owner@example.com', offlineMinutes: 45 });
    await show();
    const delay = await delayField();
    await waitFor(() => expect(delay).toHaveValue('45'));
    fireEvent.change(delay, { target: { value: '120' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('POST /api/v1/user/notify')).toHaveLength(1));
    expect(api.calls('POST /api/v1/user/notify')[0]?.body).toEqual({
      enabled: true,
      email: 'owner@example.com',
      offlineMinutes: 120,
    });
  });

  it('refuses a delay outside 5 to 1440 minutes', async () => {
    const api = serve({ enabled: true, email: 'owner@example.com', offlineMinutes: 30 });
    await show();
    const delay = await delayField();
    await waitFor(() => expect(delay).toHaveValue('30'));
    fireEvent.change(delay, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please input 5 ~ 1440', {}, SLOW)).toBeInTheDocument();
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
