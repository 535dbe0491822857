import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { batteryKeys, deleteBattery } from './api';

/** Delete with a typed confirmation (SPEC section 5): the SN must be typed exactly. */
export function DeleteBatteryDialog({
  sn,
  open,
  onClose,
  onDeleted,
}: {
  sn: string;
  open: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [typed, setTyped] = useState('');
  const remove = useMutation({
    mutationFn: () => deleteBattery(sn),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: batteryKeys.all });
      void message.success(t('batteries.delete.done'));
      onDeleted();
    },
  });
  return (
    <Modal
      open={open}
      title={t('batteries.delete.title')}
      okText={t('batteries.delete.button')}
      okButtonProps={{ danger: true, disabled: typed.trim() !== sn, loading: remove.isPending }}
      cancelText={t('common.cancel')}
      onOk={() => remove.mutate()}
      onCancel={() => {
        setTyped('');
        onClose();
      }}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('batteries.delete.text')}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('batteries.delete.confirm', { sn })} required>
          <Input
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            data-testid="confirm-sn"
            autoComplete="off"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
