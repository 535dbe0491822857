import { generateKeyPairSync } from 'node:crypto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import MockAdapter from 'axios-mock-adapter';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { http } from '@/shared/http';
import { tokenStore } from '@/shared/session';
import LoginPage from './LoginPage';
import { afterGuard } from '@/test/guard';

const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const der = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const ok = <T,>(data: T): [number, unknown] => [
  200,
  { code: 0, msg: 'Success', data, success: true },
];
const failure = (code: number, msg: string): [number, unknown] => [
  200,
  { code, msg, success: false },
];
const LOCKED = 'Too many failed sign-ins. Sign in with a verification code sent to the account';
const TOKENS = {
  access_token: 'a.b.c',
  token_type: 'bearer',
  refresh_token: 'r1',
  expires_in: 7200,
  scope: 'all',
};

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={['/login']}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/" element={<p>signed in</p>} />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

// antd forms and RSA in jsdom are slow on a busy machine
const SLOW = { timeout: 10_000 };

// 60 s: a second submit also waits out the double-click guard's 3 s
describe('the sign-in screen when sign-in is locked (109)', { timeout: 60_000 }, () => {
  let mock: MockAdapter;
  let tokenCalls: Record<string, unknown>[];
  beforeEach(() => {
    mock = new MockAdapter(http.axios);
    tokenCalls = [];
    mock.onGet('/anonymous/config').reply(() => ok({ version: 'V250120' }));
    mock.onGet('/anonymous/publicKey').reply(() => ok(der));
  });
  afterEach(() => {
    mock.restore();
    tokenStore.clear();
  });

  it('shows the message and a "send me a code" step that completes the sign-in', async () => {
    mock.onPost('/oauth/token/new').reply((config) => {
      const body = JSON.parse(String(config.data)) as Record<string, unknown>;
      tokenCalls.push(body);
      return body.code === '123456' ? ok(TOKENS) : failure(109, LOCKED);
    });
    const codeRequests: unknown[] = [];
    mock.onGet('/anonymous/getCode').reply((config) => {
      codeRequests.push(config.params);
      return ok(null);
    });
    const user = userEvent.setup();
    const { container } = show();
    await user.type(container.querySelector('#account') as HTMLElement, 'ann@example.com');
    await user.type(container.querySelector('#password') as HTMLElement, 'secret123');
    await user.click(screen.getByTestId('login-submit'));

    expect(await screen.findByText(LOCKED, {}, SLOW)).toBeInTheDocument();
    expect(screen.getByText(/Get a verification code sent to this account/)).toBeInTheDocument();
    expect(screen.getByTestId('login-submit')).toHaveTextContent('Sign in with the code');
    expect(tokenStore.get()).toBeNull();

    await user.click(screen.getByTestId('login-send-code'));
    await waitFor(() => expect(codeRequests).toHaveLength(1), SLOW);
    expect(codeRequests[0]).toMatchObject({ account: 'ann@example.com', type: 'login' });

    await user.type(screen.getByTestId('login-code'), '123456');
    await afterGuard(screen.getByTestId('login-submit'));
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('signed in', {}, SLOW)).toBeInTheDocument();
    expect(tokenCalls).toHaveLength(2);
    expect(tokenCalls[0]).not.toHaveProperty('code');
    expect(tokenCalls[1]).toMatchObject({ username: 'ann@example.com', code: '123456' });
    expect(tokenStore.get()?.access_token).toBe('a.b.c');
  });

  it('puts a wrong code on the code field and stays on the screen', async () => {
    mock.onPost('/oauth/token/new').reply((config) => {
      const body = JSON.parse(String(config.data)) as Record<string, unknown>;
      return body.code
        ? failure(5, 'Verification code error, please get it again')
        : failure(109, LOCKED);
    });
    const user = userEvent.setup();
    const { container } = show();
    await user.type(container.querySelector('#account') as HTMLElement, 'ann@example.com');
    await user.type(container.querySelector('#password') as HTMLElement, 'secret123');
    await user.click(screen.getByTestId('login-submit'));
    await user.type(await screen.findByTestId('login-code', {}, SLOW), '000000');
    await afterGuard(screen.getByTestId('login-submit'));
    await user.click(screen.getByTestId('login-submit'));
    expect(
      await screen.findByText('Verification code error, please get it again', {}, SLOW),
    ).toBeInTheDocument();
    expect(screen.queryByText('signed in')).toBeNull();
  });
});
