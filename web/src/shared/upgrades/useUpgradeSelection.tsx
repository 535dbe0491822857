import { useState, type Key } from 'react';
import { useCan } from '@/shared/permissions';
import type { UpgradeTarget } from './api';
import { UpgradeButton } from './UpgradeButton';

/**
 * Row selection for a device list and the batch upgrade button that starts from it. Without the
 * upgrade key there are no checkboxes and no button.
 */
export function useUpgradeSelection(target: UpgradeTarget) {
  const may = useCan(target === 'gateway' ? 'gateway.upgrade' : 'inverter.upgrade');
  const [selected, setSelected] = useState<string[]>([]);
  return {
    rowSelection: may
      ? {
          selectedRowKeys: selected,
          onChange: (keys: Key[]) => setSelected(keys.map(String)),
        }
      : undefined,
    button: <UpgradeButton target={target} preset={selected} />,
  };
}
