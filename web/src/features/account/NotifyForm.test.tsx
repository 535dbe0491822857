import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import MockAdapter from 'axios-mock-adapter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { http } from '@/shared/http';
import type { CurrentUser } from '@/shared/user';
import { NotifyForm } from './NotifyForm';

const ok = <T,>(data: T): [number, unknown] => [200, { code: 0, msg: 'Success', data }];
const SLOW = { timeout: 10_000 };
const user = { id: 1, email: 'owner@example.com' } as CurrentUser;

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <NotifyForm user={user} />
      </App>
    </QueryClientProvider>,
  );
}

describe('NotifyForm offline delay', () => {
  let mock: MockAdapter;
  beforeEach(() => {
    mock = new MockAdapter(http.axios);
  });
  afterEach(() => mock.restore());

  it('shows the saved delay and saves a changed one with the settings', async () => {
    mock
      .onGet('/api/v1/user/notify/enable')
      .reply(...ok({ enabled: true, email: 'owner@example.com', offlineMinutes: 45 }));
    mock.onPost('/api/v1/user/notify').reply(...ok(null));
    show();
    const delay = await screen.findByTestId('notify-offline', {}, SLOW);
    await waitFor(() => expect(delay).toHaveValue('45'));
    fireEvent.change(delay, { target: { value: '120' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(mock.history.post.length).toBe(1));
    expect(JSON.parse(mock.history.post[0]?.data as string)).toEqual({
      enabled: true,
      email: 'owner@example.com',
      offlineMinutes: 120,
    });
  });

  it('refuses a delay outside 5 to 1440 minutes', async () => {
    mock
      .onGet('/api/v1/user/notify/enable')
      .reply(...ok({ enabled: true, email: 'owner@example.com', offlineMinutes: 30 }));
    show();
    const delay = await screen.findByTestId('notify-offline', {}, SLOW);
    await waitFor(() => expect(delay).toHaveValue('30'));
    fireEvent.change(delay, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please input 5 ~ 1440', {}, SLOW)).toBeInTheDocument();
    expect(mock.history.post.length).toBe(0);
  });

  it('leaves the delay alone while the e-mails are off', async () => {
    mock
      .onGet('/api/v1/user/notify/enable')
      .reply(...ok({ enabled: false, email: '', offlineMinutes: 30 }));
    show();
    const delay = await screen.findByTestId('notify-offline', {}, SLOW);
    await waitFor(() => expect(delay).toHaveValue('30'));
    expect(delay).toBeDisabled();
  });
});
