import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchTransport, TransportError, urlOf } from './transport';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the fetch transport', () => {
  it('sends an object as JSON, a GET without a body, and parses a JSON answer', async () => {
    const fetch = vi.fn((_url: string, _init: RequestInit) =>
      Promise.resolve(new Response('{"code":0,"data":1}', { status: 200 })),
    );
    vi.stubGlobal('fetch', fetch);
    const post = await fetchTransport({ method: 'post', url: '/api/x', data: { a: 1 } });
    expect(post.data).toEqual({ code: 0, data: 1 });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/x');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"a":1}');
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
    await fetchTransport({ url: '/api/y', params: { lan: 'es' }, data: { a: 1 } });
    expect(fetch.mock.calls[1]![0]).toBe('/api/y?lan=es');
    expect(fetch.mock.calls[1]![1].body).toBeUndefined();
  });

  it('keeps a text answer and any status', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('Bad Gateway', { status: 502 })));
    const answer = await fetchTransport({ url: '/x' });
    expect(answer).toMatchObject({ status: 502, data: 'Bad Gateway' });
  });

  it('gives up after the timeout with a transport error', async () => {
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_, reject) =>
          init.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    );
    const call = fetchTransport({ url: '/x', timeout: 20 });
    await expect(call).rejects.toBeInstanceOf(TransportError);
    await expect(call).rejects.toThrow(/timeout/);
  });

  it('adds the query to a URL that has one', () => {
    expect(urlOf({ baseURL: '', url: '/a?b=1', params: { lan: 'en' } })).toBe('/a?b=1&lan=en');
  });
});
