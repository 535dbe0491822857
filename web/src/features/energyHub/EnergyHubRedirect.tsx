import './texts';
import { Navigate } from 'react-router';

/** /energyHub: the enrollments. */
export default function EnergyHubRedirect() {
  return <Navigate to="/energyHub/enrollmentPlan" replace />;
}
