import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenStore, Tokens } from '../session';
import { createHttpClient, type HttpUi } from './client';
import { ApiError, SignedOutError } from './errors';
import { queryString, TransportError, type RequestConfig, type Transport } from './transport';

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

/** An answer: status and body, or no answer at all (the connection failed). */
type Answer = [number, unknown?] | 'network';
type Script = (config: RequestConfig) => Answer | Promise<Answer>;

/**
 * A scripted server for this client alone (the app's fakeHttp serves the app's one client, by
 * the API document's paths; these tests make up paths and fail connections on purpose). A
 * script is `METHOD path` or `METHOD` plus a pattern; given as a list, its answers are used
 * once each, the last one for good.
 */
function scriptedServer() {
  const scripts: { method: string; path: string | RegExp; answers: Script[] }[] = [];
  const history: { method: string; url: string; data: unknown }[] = [];
  const transport: Transport = async (config) => {
    const method = (config.method ?? 'get').toUpperCase();
    const url = config.url ?? '';
    history.push({ method, url, data: config.data });
    const found = scripts.find(
      (s) =>
        s.method === method && (typeof s.path === 'string' ? s.path === url : s.path.test(url)),
    );
    if (!found) throw new Error(`no script answers ${method} ${url}`);
    const script = found.answers.length > 1 ? found.answers.shift() : found.answers[0];
    const answer = await script!(config);
    if (answer === 'network') throw new TransportError('Network Error');
    const [status, data] = answer;
    return { data, status, headers: new Headers(), config };
  };
  const on = (method: string, path: string | RegExp, ...answers: (Script | Answer)[]) => {
    scripts.push({
      method,
      path,
      answers: answers.map((a) => (typeof a === 'function' ? a : () => a)),
    });
  };
  /** The requests of one method so far. */
  const sent = (method: string) => history.filter((h) => h.method === method);
  return { transport, on, sent };
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
  const server = scriptedServer();
  client.transport = server.transport;
  return { client, server, tokens, ui };
}

const ok = <T>(data: T): Answer => [200, { code: 0, msg: 'Success', data, success: true }];
const unauthorized: Answer = [401, { code: 401, msg: 'Unauthorized', success: false }];

describe('the http client', () => {
  let env: ReturnType<typeof setup>;
  beforeEach(() => {
    env = setup();
  });

  it('sends the bearer token on /api calls and the language on every call', async () => {
    env.server.on('GET', '/api/v1/user', (config) => {
      expect(config.headers?.Authorization).toBe('Bearer old');
      expect(config.params).toEqual({ lan: 'es', x: 1 });
      return ok({ id: 7 });
    });
    env.server.on('GET', '/anonymous/config', (config) => {
      expect(config.headers?.Authorization).toBeUndefined();
      expect(config.params).toEqual({ lan: 'es' });
      return ok({ version: 'V250120' });
    });
    await expect(env.client.get('/api/v1/user', { params: { x: 1 } })).resolves.toEqual({ id: 7 });
    await expect(env.client.get('/anonymous/config')).resolves.toEqual({ version: 'V250120' });
  });

  it('refreshes once on 401 while other failing requests queue, then replays them all', async () => {
    let refreshCalls = 0;
    env.server.on('POST', '/oauth/token', (config) => {
      refreshCalls += 1;
      expect(config.data).toEqual({
        grant_type: 'refresh_token',
        refresh_token: 'r1',
      });
      return new Promise((resolve) => {
        setTimeout(() => resolve(ok({ access_token: 'new', refresh_token: 'r2' })), 20);
      });
    });
    const seen: string[] = [];
    for (const path of ['/api/v1/a', '/api/v1/b', '/api/v1/c']) {
      env.server.on('GET', path, (config) => {
        const auth = String(config.headers?.Authorization);
        seen.push(`${path} ${auth}`);
        return auth === 'Bearer new' ? ok(path) : unauthorized;
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
    env.server.on('POST', '/oauth/token', () => {
      refreshCalls += 1;
      return ok({ access_token: 'new', refresh_token: 'r2' });
    });
    env.server.on('GET', '/api/v1/a', (config) =>
      config.headers?.Authorization === 'Bearer new' ? ok('a') : unauthorized,
    );
    env.server.on('GET', '/api/v1/late', (config) => {
      if (config.headers?.Authorization === 'Bearer new') return ok('late');
      // sent with the old token, refused only after the refresh has finished
      return new Promise((resolve) => setTimeout(() => resolve(unauthorized), 50));
    });
    const both = Promise.all([env.client.get('/api/v1/a'), env.client.get('/api/v1/late')]);
    await expect(both).resolves.toEqual(['a', 'late']);
    expect(refreshCalls).toBe(1);
  });

  it('signs out and rejects every queued request when the refresh fails', async () => {
    env.server.on('POST', '/oauth/token', [401, (unauthorized as [number, unknown])[1]]);
    env.server.on('GET', /\/api\/v1\/.*/, unauthorized);

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
    env.server.on('POST', '/oauth/token', ok({ access_token: 'new', refresh_token: 'r2' }));
    env.server.on('GET', '/api/v1/a', unauthorized);
    await expect(env.client.get('/api/v1/a')).rejects.toBeInstanceOf(SignedOutError);
    expect(env.server.sent('POST')).toHaveLength(1);
    expect(env.ui.signedOut).toHaveBeenCalledTimes(1);
  });

  it('clears the sign-in and leaves for /login on code 102', async () => {
    env.server.on('GET', '/api/v1/x', [200, { code: 102, msg: 'Wrong account', success: false }]);
    await expect(env.client.get('/api/v1/x')).rejects.toBeInstanceOf(SignedOutError);
    expect(env.tokens.value).toBeNull();
    expect(env.ui.signedOut).toHaveBeenCalledWith('invalid');
    expect(env.ui.toast).not.toHaveBeenCalled();
  });

  it('toasts the server message for an unhandled code and falls back to the catalogue', async () => {
    env.server.on('GET', '/api/v1/x', [
      200,
      { code: 700, msg: 'Plant does not exist', success: false },
    ]);
    env.server.on('GET', '/api/v1/y', [200, { code: 800, msg: '', success: false }]);
    await expect(env.client.get('/api/v1/x')).rejects.toMatchObject({ code: 700 });
    await expect(env.client.get('/api/v1/y')).rejects.toMatchObject({ code: 800 });
    expect(env.ui.toast.mock.calls).toEqual([
      ['Plant does not exist', 700],
      ['local message 800', 800],
    ]);
  });

  it('stays silent for codes the call handles, including 102 on the login call', async () => {
    env.server.on('POST', '/oauth/token/new', [200, { code: 102, msg: 'Wrong', success: false }]);
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
    env.server.on('GET', '/api/v1/a', [502], ok('a'));
    env.server.on('GET', '/api/v1/b', 'network', ok('b'));
    const both = Promise.all([env.client.get('/api/v1/a'), env.client.get('/api/v1/b')]);
    await vi.waitFor(() => expect(env.ui.networkError).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 10));
    resolveDialog(true);
    await expect(both).resolves.toEqual(['a', 'b']);
    expect(env.ui.networkError).toHaveBeenCalledTimes(1);
  });

  it('rejects on a network error when the dialog is cancelled', async () => {
    env.server.on('GET', '/api/v1/a', [500]);
    await expect(env.client.get('/api/v1/a')).rejects.toThrow();
    expect(env.ui.networkError).toHaveBeenCalledTimes(1);
  });

  it('only rejects a 401 for a call that asks for no refresh', async () => {
    env.server.on('POST', '/api/v1/user/logout', unauthorized);
    await expect(env.client.post('/api/v1/user/logout', {}, { noRefresh: true })).rejects.toThrow();
    expect(env.server.sent('POST')).toHaveLength(1);
    expect(env.ui.signedOut).not.toHaveBeenCalled();
    expect(env.tokens.value).not.toBeNull();
  });
});

describe('the query string', () => {
  it('is written as axios wrote it', () => {
    expect(
      queryString({
        lan: 'en',
        name: 'a b,c:d',
        none: null,
        gone: undefined,
        ids: [1, 2],
        on: true,
        at: new Date(Date.UTC(2026, 0, 2)),
      }),
    ).toBe('lan=en&name=a+b,c:d&ids[]=1&ids[]=2&on=true&at=2026-01-02T00:00:00.000Z');
  });
});
