import { Navigate, Outlet, useLocation } from 'react-router';
import { isSignedIn } from '@/shared/session';

/** Any route but the open ones needs a stored sign-in. */
export function RequireSignIn() {
  const location = useLocation();
  if (!isSignedIn()) {
    const from = `${location.pathname}${location.search}`;
    return <Navigate to="/login" replace state={from === '/' ? undefined : { from }} />;
  }
  return <Outlet />;
}

/** A signed-in user opening /login goes to /. */
export function SignedOutOnly() {
  return isSignedIn() ? <Navigate to="/" replace /> : <Outlet />;
}
