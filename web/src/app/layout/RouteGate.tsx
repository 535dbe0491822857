import { lazy, Suspense } from 'react';
import { MoreTexts } from '@/shared/i18n/MoreTexts';
import { usePermissions } from '@/shared/permissions';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { isAllowed, type RouteEntry } from '../menu';

const Forbidden = lazy(() => import('../pages/Forbidden').then((m) => ({ default: m.Forbidden })));

/**
 * The first screens after sign-in (the fleet dashboard or welcome page at `/`, the plant list):
 * their texts are built in; every other screen waits for the rest of the English texts too.
 */
const FIRST_SCREENS = new Set(['/', '/plants']);

/** A registry screen: shown when the permission tree allows it, else the no-access page. */
export function RouteGate({ entry }: { entry: RouteEntry }) {
  const permissions = usePermissions();
  const Page = entry.element;
  const page = isAllowed(entry, permissions.routes) ? <Page /> : <Forbidden inLayout />;
  return (
    <Suspense fallback={<FullPageSpin />}>
      {FIRST_SCREENS.has(entry.path) ? page : <MoreTexts>{page}</MoreTexts>}
    </Suspense>
  );
}
