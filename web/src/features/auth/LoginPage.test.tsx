import { generateKeyPairSync } from 'node:crypto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenStore } from '@/shared/session';
import { afterGuard } from '@/test/guard';
import { envelope, failure, fakeHttp, type Routes } from '@/test/http';
import { renderScreen } from '@/test/render';
import { aUser } from '@/test/user';
import LoginPage from './LoginPage';

const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const der = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const LOCKED = 'Too many failed sign-ins. Sign in with a verification code sent to the account';
const TOKENS = {
  access_token: 'a.b.c',
  token_type: 'bearer',
  refresh_token: 'r1',
  expires_in: 7200,
  scope: 'all',
};

const show = () =>
  renderScreen(<LoginPage />, { route: '/login', routes: { '/': <p>signed in</p> } });

/**
 * The server: the anonymous configuration and key, the user and permissions the login page
 * asks for once signed in (for the signed-in frame), and `routes`.
 */
const serve = (routes: Routes) =>
  fakeHttp({
    'GET /api/v1/user': () => envelope(aUser()),
    'GET /api/v1/permission': () =>
      envelope({ id: 0, name: '', permission: '', type: 0, children: [] }),
    'GET /anonymous/config': () =>
      envelope({
        version: 'V250120',
        appDownload: { android: null, ios: null },
        brandedHosts: [],
        defaultThemeColor: '',
        mapTileUrl: '',
      }),
    'GET /anonymous/publicKey': () => envelope(der),
    ...routes,
  });

/** The sign-in requests' bodies so far. */
const tokenCalls = (api: ReturnType<typeof serve>) =>
  api.calls('POST /oauth/token/new').map((r) => r.body as Record<string, unknown>);

// (a second submit also waits out the double-click guard's 3 s)
describe('the sign-in screen when sign-in is locked (109)', () => {
  afterEach(() => {
    tokenStore.clear();
  });

  it('shows the message and a "send me a code" step that completes the sign-in', async () => {
    const api = serve({
      'POST /oauth/token/new': ({ body }) =>
        (body as Record<string, unknown>).code === '123456'
          ? envelope(TOKENS)
          : failure(109, LOCKED),
      'GET /anonymous/getCode': () => envelope(null),
    });
    const codeRequests = () => api.calls('GET /anonymous/getCode').map((r) => r.query);
    const user = userEvent.setup();
    await show();
    await user.type(screen.getByLabelText('Account'), 'ann@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByTestId('login-submit'));

    expect(await screen.findByText(LOCKED)).toBeInTheDocument();
    expect(screen.getByText(/Get a verification code sent to this account/)).toBeInTheDocument();
    expect(screen.getByTestId('login-submit')).toHaveTextContent('Sign in with the code');
    expect(tokenStore.get()).toBeNull();

    await user.click(screen.getByTestId('login-send-code'));
    await waitFor(() => expect(codeRequests()).toHaveLength(1));
    expect(codeRequests()[0]).toMatchObject({ account: 'ann@example.com', type: 'login' });

    await user.type(screen.getByTestId('login-code'), '123456');
    await afterGuard(screen.getByTestId('login-submit'));
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('signed in')).toBeInTheDocument();
    expect(tokenCalls(api)).toHaveLength(2);
    expect(tokenCalls(api)[0]).not.toHaveProperty('code');
    expect(tokenCalls(api)[1]).toMatchObject({ username: 'ann@example.com', code: '123456' });
    expect(tokenStore.get()?.access_token).toBe('a.b.c');
  });

  it('puts a wrong code on the code field and stays on the screen', async () => {
    serve({
      'POST /oauth/token/new': ({ body }) =>
        (body as Record<string, unknown>).code
          ? failure(5, 'Verification code error, please get it again')
          : failure(109, LOCKED),
    });
    const user = userEvent.setup();
    await show();
    await user.type(screen.getByLabelText('Account'), 'ann@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByTestId('login-submit'));
    await user.type(await screen.findByTestId('login-code'), '000000');
    await afterGuard(screen.getByTestId('login-submit'));
    await user.click(screen.getByTestId('login-submit'));
    expect(
      await screen.findByText('Verification code error, please get it again'),
    ).toBeInTheDocument();
    expect(screen.queryByText('signed in')).toBeNull();
  });
});
