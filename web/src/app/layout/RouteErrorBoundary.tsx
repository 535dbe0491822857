import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { RouteError } from '../pages/RouteError';

interface Props {
  children: ReactNode;
}

class Boundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

/**
 * What the data router's `errorElement` did: a page that throws while rendering (a chunk
 * missing after a deployment) shows RouteError; another address starts afresh. The routes are
 * declarative (router.tsx), which keeps the data router's code (20 kB gzip) out of every screen.
 */
export function RouteErrorBoundary({ children }: Props) {
  const { pathname } = useLocation();
  return <Boundary key={pathname}>{children}</Boundary>;
}
