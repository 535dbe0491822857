import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, List, Modal, Radio, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { GuardedModal, GuardedPopconfirm, SubmitButton } from '@/shared/ui/guarded';
import { account as accountRule, formRule, requiredRule } from '@/shared/validators';
import { cancelShare, deletePlant, sharePlant, shareUsersQuery, transferPlant } from './api';
import { plantKeys } from '@/shared/api/keys';

export interface PlantRef {
  id: number;
  name: string;
}

const useInvalidatePlants = () => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: plantKeys.all });
};

/** Share with an account as visitor (read-only) or maintainer; current shares with cancel. */
export function ShareDialog({ plant, onClose }: { plant: PlantRef; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ account: string; role: string }>();
  const invalidate = useInvalidatePlants();
  const shares = useQuery(shareUsersQuery(plant.id));
  const share = useMutation({
    mutationFn: (v: { account: string; role: string }) =>
      sharePlant(plant.id, v.account.trim(), v.role),
    onSuccess: async () => {
      message.success(t('plants.share.done'));
      form.resetFields(['account']);
      await shares.refetch();
      await invalidate();
    },
    onError: (e) => {
      if (isApiError(e)) form.setFields([{ name: 'account', errors: [e.message] }]);
    },
  });
  const cancel = useMutation({
    mutationFn: (userId: number) => cancelShare(plant.id, userId),
    onSuccess: async () => {
      message.success(t('plants.share.cancelled'));
      await shares.refetch();
    },
  });
  return (
    <Modal
      open
      title={t('plants.share.title', { name: plant.name })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ role: 'visitor' }}
        onFinish={(v) => share.mutate(v)}
      >
        <Form.Item
          name="account"
          label={t('plants.share.account')}
          rules={[requiredRule(), formRule(accountRule)]}
        >
          <Input data-keyfilter="off" placeholder={t('login.accountPlaceholder')} />
        </Form.Item>
        <Form.Item name="role" label={t('plants.share.role')}>
          <Radio.Group>
            <Radio value="visitor">
              {t('plants.share.visitor')}{' '}
              <Typography.Text type="secondary">{t('plants.share.visitorHint')}</Typography.Text>
            </Radio>
            <Radio value="maintainer">
              {t('plants.share.maintainer')}{' '}
              <Typography.Text type="secondary">{t('plants.share.maintainerHint')}</Typography.Text>
            </Radio>
          </Radio.Group>
        </Form.Item>
        <SubmitButton
          type="primary"
          htmlType="submit"
          loading={share.isPending}
          data-testid="share-submit"
        >
          {t('plants.share.submit')}
        </SubmitButton>
      </Form>
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('plants.share.current')}
      </Typography.Title>
      <List
        loading={shares.isPending}
        dataSource={shares.data ?? []}
        locale={{ emptyText: t('plants.share.none') }}
        data-testid="share-list"
        renderItem={(s) => (
          <List.Item
            actions={[
              <GuardedPopconfirm
                key="cancel"
                title={t('plants.share.cancelConfirm', { account: s.account })}
                onConfirm={() => cancel.mutate(s.userId)}
              >
                <Button size="small" danger>
                  {t('plants.share.cancel')}
                </Button>
              </GuardedPopconfirm>,
            ]}
          >
            <List.Item.Meta title={s.account} description={s.nickname || undefined} />
            <Tag>{t(`plants.share.${s.role}`)}</Tag>
          </List.Item>
        )}
      />
    </Modal>
  );
}

/** The typed confirmation: the button enables only once the plant name is typed exactly. */
function ConfirmName({
  name,
  value,
  onChange,
}: {
  name: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('plants.confirmName', { name })} required>
      <Input
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-keyfilter="off"
        autoComplete="off"
        data-testid="confirm-name"
        placeholder={name}
      />
    </Form.Item>
  );
}

export function TransferDialog({ plant, onClose }: { plant: PlantRef; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ account: string }>();
  const [typed, setTyped] = useState('');
  const invalidate = useInvalidatePlants();
  const transfer = useMutation({
    mutationFn: (account: string) => transferPlant(plant.id, account.trim()),
    onSuccess: async () => {
      message.success(t('plants.transfer.done'));
      await invalidate();
      onClose();
    },
    onError: (e) => {
      if (isApiError(e)) form.setFields([{ name: 'account', errors: [e.message] }]);
    },
  });
  return (
    <GuardedModal
      open
      title={t('plants.transfer.title', { name: plant.name })}
      onCancel={onClose}
      okText={t('plants.transfer.submit')}
      okButtonProps={{
        danger: true,
        disabled: typed !== plant.name,
        loading: transfer.isPending,
        'data-testid': 'transfer-submit',
      }}
      onOk={() => void form.validateFields().then((v) => transfer.mutate(v.account))}
      destroyOnHidden
    >
      <Typography.Paragraph type="warning">{t('plants.transfer.warning')}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          name="account"
          label={t('plants.transfer.account')}
          rules={[requiredRule(), formRule(accountRule)]}
        >
          <Input data-keyfilter="off" placeholder={t('login.accountPlaceholder')} />
        </Form.Item>
        <ConfirmName name={plant.name} value={typed} onChange={setTyped} />
      </Form>
    </GuardedModal>
  );
}

export function DeleteDialog({ plant, onClose }: { plant: PlantRef; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [typed, setTyped] = useState('');
  const invalidate = useInvalidatePlants();
  const remove = useMutation({
    mutationFn: () => deletePlant(plant.id),
    onSuccess: async () => {
      message.success(t('plants.delete.done'));
      await invalidate();
      onClose();
    },
  });
  return (
    <GuardedModal
      open
      title={t('plants.delete.title', { name: plant.name })}
      onCancel={onClose}
      okText={t('plants.delete.submit')}
      okButtonProps={{
        danger: true,
        disabled: typed !== plant.name,
        loading: remove.isPending,
        'data-testid': 'delete-submit',
      }}
      onOk={() => remove.mutate()}
      destroyOnHidden
    >
      <Typography.Paragraph type="danger">{t('plants.delete.warning')}</Typography.Paragraph>
      <Form layout="vertical">
        <ConfirmName name={plant.name} value={typed} onChange={setTyped} />
      </Form>
    </GuardedModal>
  );
}
