import { Activity, useState, type ReactNode } from 'react';
import { useLocation, useOutlet } from 'react-router';

/**
 * Renders the matched page; pages whose path `keepAlive` accepts stay mounted (hidden, with
 * their state) when the user leaves them, and come back as they were.
 */
export function KeepAliveOutlet({ keepAlive }: { keepAlive: (pathname: string) => boolean }) {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const [cache, setCache] = useState<Record<string, ReactNode>>({});
  const keep = keepAlive(pathname);
  if (keep && !(pathname in cache)) {
    // adjusting state while rendering: the page joins the cache on its first visit
    setCache((c) => ({ ...c, [pathname]: outlet }));
  }
  return (
    <>
      {Object.entries(cache).map(([path, element]) => (
        <Activity key={path} mode={path === pathname ? 'visible' : 'hidden'}>
          {path === pathname ? (outlet ?? element) : element}
        </Activity>
      ))}
      {keep ? (pathname in cache ? null : outlet) : outlet}
    </>
  );
}
