import MockAdapter from 'axios-mock-adapter';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenStore, Tokens } from '../session';
import { createHttpClient, type HttpUi } from './client';
import { ApiError, SignedOutError } from './errors';

function memoryTokens(initial: Tokens | null): TokenStore & { value: Tokens | null } {
  return {
    value: initial,
    get() {
      return this.value;
    },
    set(tokens) {
      this.value = tokens;
    },
    clear() {
      this.value = null;
    },
  };
}

function setup(initial: Tokens | null = { access_token: 'old', refresh_token: 'r1' }) {
  const tokens = memoryTokens(initial);
  const ui = {
    toast: vi.fn<HttpUi['toast']>(),
    networkError: vi.fn<HttpUi['networkError']>(() => Promise.resolve(false)),
    signedOut: vi.fn<HttpUi['signedOut']>(),
  };
  const client = createHttpClient({
    tokens,
    ui,
    language: () => 'es',
    codeMessage: (code) => `local message ${code}`,
  });
  const mock = new MockAdapter(client.axios);
  return { client, mock, tokens, ui };
}

const ok = <T>(data: T): [number, unknown] => [
  200,
  { code: 0, msg: 'Success', data, success: true },
];
const unauthorized: [number, unknown] = [401, { code: 401, msg: 'Unauthorized', success: false }];

describe('the http client', () => {
  let env: ReturnType<typeof setup>;
  beforeEach(() => {
    env = setup();
  });

  it('sends the bearer token on /api calls and the language on every call', async () => {
    env.mock.onGet('/api/v1/user').reply((config) => {
      expect(config.headers?.Authorization).toBe('Bearer old');
      expect(config.params).toEqual({ lan: 'es', x: 1 });
      return ok({ id: 7 });
    });
    env.mock.onGet('/anonymous/config').reply((config) => {
      expect(config.headers?.Authorization).toBeUndefined();
      expect(config.params).toEqual({ lan: 'es' });
      return ok({ version: 'V250120' });
    });
    await expect(env.client.get('/api/v1/user', { params: { x: 1 } })).resolves.toEqual({ id: 7 });
    await expect(env.client.get('/anonymous/config')).resolves.toEqual({ version: 'V250120' });
  });

  it('refreshes once on 401 while other failing requests queue, then replays them all', async () => {
    let refreshCalls = 0;
    env.mock.onPost('/oauth/token').reply((config) => {
      refreshCalls += 1;
      expect(JSON.parse(config.data as string)).toEqual({
        grant_type: 'refresh_token',
        refresh_token: 'r1',
      });
      return new Promise((resolve) => {
        setTimeout(() => resolve([...ok({ access_token: 'new', refresh_token: 'r2' })]), 20);
      });
    });
    const seen: string[] = [];
    for (const path of ['/api/v1/a', '/api/v1/b', '/api/v1/c']) {
      env.mock.onGet(path).reply((config) => {
        const auth = String(config.headers?.Authorization);
        seen.push(`${path} ${auth}`);
        return auth === 'Bearer new' ? [...ok(path)] : [...unauthorized];
      });
    }

    const results = await Promise.all([
      env.client.get('/api/v1/a'),
      env.client.get('/api/v1/b'),
      env.client.get('/api/v1/c'),
    ]);

    expect(results).toEqual(['/api/v1/a', '/api/v1/b', '/api/v1/c']);
    expect(refreshCalls).toBe(1);
    expect(env.tokens.value).toMatchObject({ access_token: 'new', refresh_token: 'r2' });
    expect(seen.filter((s) => s.endsWith('Bearer old'))).toHaveLength(3);
    expect(seen.filter((s) => s.endsWith('Bearer new'))).toHaveLength(3);
    expect(env.ui.signedOut).not.toHaveBeenCalled();
  });

  it('replays without a second refresh when the 401 answers a request sent before a refresh', async () => {
    let refreshCalls = 0;
    env.mock.onPost('/oauth/token').reply(() => {
      refreshCalls += 1;
      return [...ok({ access_token: 'new', refresh_token: 'r2' })];
    });
    env.mock
      .onGet('/api/v1/a')
      .reply((config) =>
        config.headers?.Authorization === 'Bearer new' ? [...ok('a')] : [...unauthorized],
      );
    env.mock.onGet('/api/v1/late').reply((config) => {
      if (config.headers?.Authorization === 'Bearer new') return [...ok('late')];
      // sent with the old token, refused only after the refresh has finished
      return new Promise((resolve) => setTimeout(() => resolve([...unauthorized]), 50));
    });
    const both = Promise.all([env.client.get('/api/v1/a'), env.client.get('/api/v1/late')]);
    await expect(both).resolves.toEqual(['a', 'late']);
    expect(refreshCalls).toBe(1);
  });

  it('signs out and rejects every queued request when the refresh fails', async () => {
    env.mock.onPost('/oauth/token').reply(401, unauthorized[1]);
    env.mock.onGet(/\/api\/v1\/.*/).reply(...unauthorized);

    const results = await Promise.allSettled([
      env.client.get('/api/v1/a'),
      env.client.get('/api/v1/b'),
    ]);

    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(SignedOutError);
    }
    expect(env.tokens.value).toBeNull();
    expect(env.ui.signedOut).toHaveBeenCalledWith('expired');
  });

  it('does not refresh again when the replayed request is refused too', async () => {
    env.mock.onPost('/oauth/token').reply(...ok({ access_token: 'new', refresh_token: 'r2' }));
    env.mock.onGet('/api/v1/a').reply(...unauthorized);
    await expect(env.client.get('/api/v1/a')).rejects.toBeInstanceOf(SignedOutError);
    expect(env.mock.history.post).toHaveLength(1);
    expect(env.ui.signedOut).toHaveBeenCalledTimes(1);
  });

  it('clears the sign-in and leaves for /login on code 102', async () => {
    env.mock.onGet('/api/v1/x').reply(200, { code: 102, msg: 'Wrong account', success: false });
    await expect(env.client.get('/api/v1/x')).rejects.toBeInstanceOf(SignedOutError);
    expect(env.tokens.value).toBeNull();
    expect(env.ui.signedOut).toHaveBeenCalledWith('invalid');
    expect(env.ui.toast).not.toHaveBeenCalled();
  });

  it('toasts the server message for an unhandled code and falls back to the catalogue', async () => {
    env.mock
      .onGet('/api/v1/x')
      .reply(200, { code: 700, msg: 'Plant does not exist', success: false });
    env.mock.onGet('/api/v1/y').reply(200, { code: 800, msg: '', success: false });
    await expect(env.client.get('/api/v1/x')).rejects.toMatchObject({ code: 700 });
    await expect(env.client.get('/api/v1/y')).rejects.toMatchObject({ code: 800 });
    expect(env.ui.toast.mock.calls).toEqual([
      ['Plant does not exist', 700],
      ['local message 800', 800],
    ]);
  });

  it('stays silent for codes the call handles, including 102 on the login call', async () => {
    env.mock.onPost('/oauth/token/new').reply(200, { code: 102, msg: 'Wrong', success: false });
    const call = env.client.post('/oauth/token/new', {}, { handledCodes: [101, 102] });
    await expect(call).rejects.toBeInstanceOf(ApiError);
    await expect(call).rejects.toMatchObject({ code: 102 });
    expect(env.ui.toast).not.toHaveBeenCalled();
    expect(env.ui.signedOut).not.toHaveBeenCalled();
    expect(env.tokens.value).not.toBeNull();
  });

  it('opens one network dialog for concurrent failures and retries when confirmed', async () => {
    let resolveDialog: (retry: boolean) => void = () => {};
    env.ui.networkError.mockImplementation(
      () => new Promise<boolean>((resolve) => (resolveDialog = resolve)),
    );
    env.mock
      .onGet('/api/v1/a')
      .replyOnce(502)
      .onGet('/api/v1/a')
      .reply(...ok('a'));
    env.mock
      .onGet('/api/v1/b')
      .networkErrorOnce()
      .onGet('/api/v1/b')
      .reply(...ok('b'));
    const both = Promise.all([env.client.get('/api/v1/a'), env.client.get('/api/v1/b')]);
    await vi.waitFor(() => expect(env.ui.networkError).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 10));
    resolveDialog(true);
    await expect(both).resolves.toEqual(['a', 'b']);
    expect(env.ui.networkError).toHaveBeenCalledTimes(1);
  });

  it('rejects on a network error when the dialog is cancelled', async () => {
    env.mock.onGet('/api/v1/a').reply(500);
    await expect(env.client.get('/api/v1/a')).rejects.toThrow();
    expect(env.ui.networkError).toHaveBeenCalledTimes(1);
  });

  it('only rejects a 401 for a call that asks for no refresh', async () => {
    env.mock.onPost('/api/v1/user/logout').reply(...unauthorized);
    await expect(env.client.post('/api/v1/user/logout', {}, { noRefresh: true })).rejects.toThrow();
    expect(env.mock.history.post).toHaveLength(1);
    expect(env.ui.signedOut).not.toHaveBeenCalled();
    expect(env.tokens.value).not.toBeNull();
  });
});
