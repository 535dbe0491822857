import { Suspense } from 'react';
import { usePermissions } from '@/shared/permissions';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { isAllowed, type RouteEntry } from '../menu';
import { Forbidden } from '../pages/Forbidden';

/** A registry screen: shown when the permission tree allows it, else the no-access page. */
export function RouteGate({ entry }: { entry: RouteEntry }) {
  const permissions = usePermissions();
  if (!isAllowed(entry, permissions.routes)) return <Forbidden inLayout />;
  const Page = entry.element;
  return (
    <Suspense fallback={<FullPageSpin />}>
      <Page />
    </Suspense>
  );
}
