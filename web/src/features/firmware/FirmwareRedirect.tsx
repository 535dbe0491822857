import { Navigate } from 'react-router';
import { usePermissions } from '@/shared/permissions';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';

/** /firmware: inverter firmware, or gateway software for a user who may see only that. */
export default function FirmwareRedirect() {
  const permissions = usePermissions();
  if (permissions.routes.size === 0) return <FullPageSpin />;
  const inverter =
    permissions.routes.has('firmware.inverter.view') ||
    !permissions.routes.has('firmware.gateway.view');
  return <Navigate to={inverter ? '/firmware/inv' : '/firmware/gate'} replace />;
}
