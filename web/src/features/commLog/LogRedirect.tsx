import { Navigate } from 'react-router';
import { usePermissions } from '@/shared/permissions';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { logTarget } from './target';

/** /log: the maintenance log, else the first log the user may read. */
export default function LogRedirect() {
  const permissions = usePermissions();
  if (permissions.routes.size === 0) return <FullPageSpin />;
  return <Navigate to={logTarget(permissions.routes)} replace />;
}
