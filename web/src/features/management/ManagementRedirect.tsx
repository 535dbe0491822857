import { Navigate } from 'react-router';
import { usePermissions } from '@/shared/permissions';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';

/** The management screens in menu order with the key each needs. */
const SCREENS: readonly [string, string][] = [
  ['sys.gateway.view', '/management/gateway'],
  ['sys.company.view', '/management/company'],
  ['sys.product.view', '/management/product'],
  ['sys.protocol.view', '/management/protocol'],
];

/** /management: the system gateways, else the first management screen allowed. */
export default function ManagementRedirect() {
  const permissions = usePermissions();
  if (permissions.routes.size === 0) return <FullPageSpin />;
  const target = SCREENS.find(([key]) => permissions.routes.has(key))?.[1] ?? '/management/gateway';
  return <Navigate to={target} replace />;
}
