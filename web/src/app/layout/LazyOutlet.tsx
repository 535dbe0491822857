import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';

/** The lazily loaded pages below wait here for their code. */
export function LazyOutlet() {
  return (
    <Suspense fallback={<FullPageSpin />}>
      <Outlet />
    </Suspense>
  );
}
