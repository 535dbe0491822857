import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GuardedModal } from '../ui/guarded';
import { aliasTooLong } from './alias';
import type { DeviceKind } from './kind';

/** Rename a device; names are at most 32 bytes (docs/overview.md). */
export function RenameDeviceDialog({
  kind,
  sn,
  alias,
  open,
  onClose,
}: {
  kind: DeviceKind & Required<Pick<DeviceKind, 'rename'>>;
  sn: string;
  alias: string;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [value, setValue] = useState(alias);
  const tooLong = aliasTooLong(value);
  const save = useMutation({
    mutationFn: () => kind.rename(sn, value.trim()),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: kind.keys.all });
      void message.success(t('common.saved'));
      onClose();
    },
  });
  return (
    <GuardedModal
      open={open}
      title={t(`${kind.ns}.rename.title`)}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: tooLong, loading: save.isPending }}
      onOk={() => save.mutate()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item
          label={t(`${kind.ns}.rename.label`)}
          validateStatus={tooLong ? 'error' : undefined}
          help={tooLong ? t(`${kind.ns}.rename.tooLong`) : t(`${kind.ns}.rename.hint`)}
        >
          <Input
            value={value}
            onChange={(e) => setValue(e.target.value)}
            data-testid={`${kind.testId}-alias`}
          />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}

/** Delete with a typed confirmation (docs/overview.md): the SN must be typed exactly. */
export function DeleteDeviceDialog({
  kind,
  sn,
  open,
  onClose,
  onDeleted,
}: {
  kind: DeviceKind;
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
    mutationFn: () => kind.remove(sn),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: kind.keys.all });
      void message.success(t(`${kind.ns}.delete.done`));
      onDeleted();
    },
  });
  return (
    <GuardedModal
      open={open}
      title={t(`${kind.ns}.delete.title`)}
      okText={t(`${kind.ns}.delete.button`)}
      okButtonProps={{ danger: true, disabled: typed.trim() !== sn, loading: remove.isPending }}
      cancelText={t('common.cancel')}
      onOk={() => remove.mutate()}
      onCancel={() => {
        setTyped('');
        onClose();
      }}
      destroyOnHidden
    >
      <Typography.Paragraph>{t(`${kind.ns}.delete.text`)}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t(`${kind.ns}.delete.confirm`, { sn })} required>
          <Input
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            data-testid="confirm-sn"
            autoComplete="off"
          />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
