import { ReloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '@/shared/permissions';
import { RestartDialog } from './RestartDialog';

/**
 * The gateway list's batch restart (checked first, totals after); hidden without the key. With
 * rows selected it restarts those; without, the user types the SNs. `onDone` runs when the
 * dialog closes after a restart (the list then clears its selection).
 */
export function BatchRestartButton({
  selected = [],
  onDone,
}: {
  selected?: string[];
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const may = useCan('gateway.restart');
  const [open, setOpen] = useState(false);
  if (!may) return null;
  return (
    <>
      <Button icon={<ReloadOutlined />} onClick={() => setOpen(true)} data-testid="batch-restart">
        {selected.length > 0
          ? t('gatewayActions.restartSelected', { count: selected.length })
          : t('gatewayActions.batchRestart')}
      </Button>
      <RestartDialog
        open={open}
        fixed={selected.length > 0 ? selected : undefined}
        onClose={(restarted) => {
          setOpen(false);
          if (restarted) onDone?.();
        }}
      />
    </>
  );
}
