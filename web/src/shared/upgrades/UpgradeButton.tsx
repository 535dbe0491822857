import { CloudUploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '@/shared/permissions';
import type { UpgradeTarget } from './api';
import { UpgradeDialog } from './UpgradeDialog';

interface Props {
  target: UpgradeTarget;
  /** One device (detail pages); without it the dialog asks for SNs (list pages). */
  sn?: string;
  /** The plant's keys for this device (`plantPermission`), when known: they decide. */
  plantKeys?: string[];
  /** SNs selected in a list, filled in when the dialog opens. */
  preset?: string[];
}

/** Opens the upgrade dialog; hidden without the upgrade key (the server refuses too). */
export function UpgradeButton({ target, sn, plantKeys, preset }: Props) {
  const { t } = useTranslation();
  const key = target === 'gateway' ? 'gateway.upgrade' : 'inverter.upgrade';
  const role = useCan(key);
  const [open, setOpen] = useState(false);
  const may = plantKeys ? plantKeys.includes(key) : role;
  if (!may) return null;
  return (
    <>
      <Button
        icon={<CloudUploadOutlined />}
        onClick={() => setOpen(true)}
        data-testid={sn ? 'upgrade-one' : 'upgrade-batch'}
      >
        {sn ? t('upgrades.upgrade') : t('upgrades.batchUpgrade')}
      </Button>
      <UpgradeDialog
        // A fresh dialog on every opening, starting from the current selection.
        key={open ? 'open' : 'closed'}
        open={open}
        onClose={() => setOpen(false)}
        target={target}
        fixed={sn ? [sn] : undefined}
        preset={preset}
      />
    </>
  );
}
