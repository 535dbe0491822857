import { lazy, Suspense } from 'react';
import { usePermissions } from '@/shared/permissions';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { isAllowed, type RouteEntry } from '../menu';

const Forbidden = lazy(() => import('../pages/Forbidden').then((m) => ({ default: m.Forbidden })));

/** A registry screen: shown when the permission tree allows it, else the no-access page. */
export function RouteGate({ entry }: { entry: RouteEntry }) {
  const permissions = usePermissions();
  const Page = entry.element;
  return (
    <Suspense fallback={<FullPageSpin />}>
      {isAllowed(entry, permissions.routes) ? <Page /> : <Forbidden inLayout />}
    </Suspense>
  );
}
