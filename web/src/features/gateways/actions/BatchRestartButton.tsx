import { ReloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '@/shared/permissions';
import { RestartDialog } from './RestartDialog';

/** The gateway list's batch restart (checked first, totals after); hidden without the key. */
export function BatchRestartButton() {
  const { t } = useTranslation();
  const may = useCan('gateway.restart');
  const [open, setOpen] = useState(false);
  if (!may) return null;
  return (
    <>
      <Button icon={<ReloadOutlined />} onClick={() => setOpen(true)} data-testid="batch-restart">
        {t('gatewayActions.batchRestart')}
      </Button>
      <RestartDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
