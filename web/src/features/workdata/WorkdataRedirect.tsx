import { Navigate } from 'react-router';

/** /workdata: the reports list. */
export default function WorkdataRedirect() {
  return <Navigate to="/workdata/list" replace />;
}
