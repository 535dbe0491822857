import { useQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { api } from '@/shared/api/client';
import { plantKeys } from '@/shared/api/keys';
import { FleetDashboardPage } from '@/features/fleet';
import { HomePage } from '@/features/home';
import { usePermissions } from '@/shared/permissions';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { landing } from './landing';

/** How many plants the caller sees: one small count, whatever the fleet's size. */
const plantCountQuery = {
  queryKey: [...plantKeys.all, 'root', 'count'] as const,
  queryFn: () => api.get('/api/v1/overview/plantCount', { silent: true }),
};

/** The caller's one plant, asked for only when they have exactly one. */
const onlyPlantQuery = {
  queryKey: [...plantKeys.all, 'root', 'only'] as const,
  queryFn: () => api.get('/api/v1/plants', { query: { page: 1, limit: 1 }, silent: true }),
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
  const count = useQuery(plantCountQuery);
  const one = count.data?.total === 1;
  const only = useQuery({ ...onlyPlantQuery, enabled: one });
  if (count.isPending || (one && only.isPending)) return <FullPageSpin />;
  // a failed count shows the dashboard, which tells its own failure and offers to try again
  const to = count.isError
    ? 'dashboard'
    : landing(count.data.total, one ? only.data?.infos[0] : undefined);
  if (to === 'dashboard') return <FleetDashboardPage />;
  return <Navigate to={to} replace />;
}
