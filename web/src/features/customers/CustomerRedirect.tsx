import { Navigate } from 'react-router';
import { usePermissions } from '@/shared/permissions';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';

/** /customer: the customer list, or the customer types for a user who may see only those. */
export default function CustomerRedirect() {
  const permissions = usePermissions();
  if (permissions.routes.size === 0) return <FullPageSpin />;
  const list =
    permissions.routes.has('customer.list.view') ||
    !permissions.routes.has('customer.type.list.view');
  return <Navigate to={list ? '/customer/list' : '/customer/type'} replace />;
}
