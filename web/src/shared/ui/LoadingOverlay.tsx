import { Spin } from 'antd';
import type { ReactNode } from 'react';
import { useOverlay } from '../hooks/useOverlay';

/** Covers its content while loading; closes 200 ms after the response (docs/overview.md). */
export function LoadingOverlay({ loading, children }: { loading: boolean; children: ReactNode }) {
  const visible = useOverlay(loading);
  return <Spin spinning={visible}>{children}</Spin>;
}
