import { Navigate } from 'react-router';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { usePermissions } from '@/shared/permissions';

/** /device: the gateway list (docs/overview.md), or the inverter list without gateway access. */
export default function DeviceRedirect() {
  const permissions = usePermissions();
  if (permissions.routes.size === 0) return <FullPageSpin />;
  const target = permissions.routes.has('gateway.view') ? '/device/gateway' : '/device/inverter';
  return <Navigate to={target} replace />;
}
