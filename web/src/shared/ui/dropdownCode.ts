import type { DropdownProps } from 'antd';
import type { ComponentType } from 'react';
import { deferredPart } from './deferredPart';

// A file of its own, as selectCode.ts: the login page needs this part alone.

/** antd's Dropdown with its menu, loaded on first use of a DeferredDropdown. */
export const dropdownCode = deferredPart(() =>
  import('./dropdownPart').then((m) => m.Dropdown as ComponentType<DropdownProps>),
);
