import { QueryClientContext } from '@tanstack/react-query';
import { useContext, useEffect, useState } from 'react';

/**
 * Library code a first screen shows without (issue 32): loaded once, after the first render of
 * a component that wants it, while that component shows a light stand-in.
 */
export type DeferredPart<T> = {
  /** The code, once it is in. */
  loaded: () => T | null;
  load: () => Promise<T>;
  /** Tests: forget the loaded code, as a fresh page has none. */
  forget: () => void;
};

export function deferredPart<T>(importer: () => Promise<T>): DeferredPart<T> {
  let real: T | null = null;
  let loading: Promise<T> | null = null;
  return {
    loaded: () => real,
    load: () =>
      (loading ??= importer().then((code) => {
        real = code;
        return real;
      })),
    forget: () => {
      real = null;
      loading = null;
    },
  };
}

/**
 * The longest a part waits for the page's requests. On a slow network (HTTP/1.1: six
 * connections) the code would otherwise take their place, but a page that keeps asking must
 * still get its components.
 */
const MOST_WAIT_MS = 4000;

/**
 * The part's code: null on the first render of a fresh page. Its download starts once none of
 * the page's requests is in flight (or after `MOST_WAIT_MS`): the data first, which the
 * stand-in can show, then the code that only takes over from it. On Fast 3G this brought the
 * plant list's rows 0.8 s sooner (5.44 to 4.64 s; docs/performance.md).
 */
export function usePart<T>(part: DeferredPart<T>): T | null {
  const [code, setCode] = useState<T | null>(part.loaded);
  const client = useContext(QueryClientContext);

  useEffect(() => {
    if (code) return;
    const idle = () => !client || client.isFetching() === 0;
    let unsubscribe = () => {};
    const start = () => {
      stop();
      void part.load().then((c) => setCode(() => c));
    };
    // a tick first: the page's queries start in effects that run after this child's
    const first = setTimeout(() => {
      if (idle()) start();
      else unsubscribe = client?.getQueryCache().subscribe(() => idle() && start()) ?? unsubscribe;
    }, 0);
    const latest = setTimeout(start, MOST_WAIT_MS);
    function stop() {
      clearTimeout(first);
      clearTimeout(latest);
      unsubscribe();
    }
    return stop;
  }, [client, code, part]);
  return code;
}
