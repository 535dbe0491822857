import { Navigate } from 'react-router';
import { usePermissions } from '@/shared/permissions';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { enterpriseTarget } from './labels';

/** /enterprise: the staff list (docs/overview.md), else the first company screen allowed. */
export default function EnterpriseRedirect() {
  const permissions = usePermissions();
  if (permissions.routes.size === 0) return <FullPageSpin />;
  return <Navigate to={enterpriseTarget(permissions.routes)} replace />;
}
