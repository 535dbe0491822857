import { useQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { api } from '@/shared/api/client';
import { plantKeys } from '@/shared/api/keys';
import { FleetDashboardPage } from '@/features/fleet';
import { HomePage } from '@/features/home';
import { usePermissions } from '@/shared/permissions';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { landing } from './landing';

/** The caller's first two plants: enough to tell none, one and many apart. */
const firstPlantsQuery = {
  queryKey: [...plantKeys.all, 'root'] as const,
  queryFn: () =>
    api.get('/api/v1/plants', { query: { page: 1, limit: 2, sort: 'createAt' }, silent: true }),
};

/**
 * "/" (docs/overview.md, "Fleet dashboard"): for users who may see plants, the fleet dashboard
 * when they see more than one, the plant's overview when exactly one, the plant list (to add
 * the first) when none; for everyone else the welcome page.
 */
export function RootPage() {
  const permissions = usePermissions();
  const mayPlants = permissions.routes.has('station.view');
  if (!mayPlants) return <HomePage />;
  return <PlantsHome />;
}

function PlantsHome() {
  const first = useQuery(firstPlantsQuery);
  if (first.isPending) return <FullPageSpin />;
  // a failed count shows the dashboard, which tells its own failure and offers to try again
  const to = first.isError ? 'dashboard' : landing(first.data.total, first.data.infos[0]);
  if (to === 'dashboard') return <FleetDashboardPage />;
  return <Navigate to={to} replace />;
}
