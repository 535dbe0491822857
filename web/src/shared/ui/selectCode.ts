import type { SelectProps } from 'antd';
import type { ComponentType } from 'react';
import { deferredPart } from './deferredPart';

// A file of its own, not in deferredCode.ts: the fleet dashboard shows a DeferredSelect and
// none of the other parts, and each part's loader brings the list of its chunk's files.

/** antd's Select, once its chunk is in (DeferredSelect.tsx). */
export type RealSelect = ComponentType<SelectProps<unknown>>;

export const selectCode = deferredPart(() =>
  import('./selectPart').then((m) => m.Select as RealSelect),
);
