import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { aliasTooLong } from './alias';
import { deleteStation, stationKeys, renameStation } from './api';

export function RenameStationDialog({
  sn,
  alias,
  open,
  onClose,
}: {
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
    mutationFn: () => renameStation(sn, value.trim()),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: stationKeys.all });
      void message.success(t('common.saved'));
      onClose();
    },
  });
  return (
    <Modal
      open={open}
      title={t('weather.rename.title')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: tooLong, loading: save.isPending }}
      onOk={() => save.mutate()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item
          label={t('weather.rename.label')}
          validateStatus={tooLong ? 'error' : undefined}
          help={tooLong ? t('weather.rename.tooLong') : t('weather.rename.hint')}
        >
          <Input
            value={value}
            onChange={(e) => setValue(e.target.value)}
            data-testid="weather-alias"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Delete with a typed confirmation (SPEC section 5). */
export function DeleteStationDialog({
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
    mutationFn: () => deleteStation(sn),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: stationKeys.all });
      void message.success(t('weather.delete.done'));
      onDeleted();
    },
  });
  return (
    <Modal
      open={open}
      title={t('weather.delete.title')}
      okText={t('weather.delete.button')}
      okButtonProps={{ danger: true, disabled: typed.trim() !== sn, loading: remove.isPending }}
      cancelText={t('common.cancel')}
      onOk={() => remove.mutate()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('weather.delete.text')}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('weather.delete.confirm', { sn })} required>
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
