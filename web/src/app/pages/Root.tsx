import { Navigate } from 'react-router';
import { HomePage } from '@/features/home';
import { usePermissions } from '@/shared/permissions';

/** "/": the plant list for users who may see plants (docs/overview.md), else the welcome page. */
export function RootPage() {
  const permissions = usePermissions();
  if (permissions.routes.has('station.view')) return <Navigate to="/plants" replace />;
  return <HomePage />;
}
