import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Flex, Skeleton, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GuardedPopconfirm, SubmitButton } from '@/shared/ui/guarded';
import { Problem } from '@/shared/ui/Problem';
import { DeliveryLogDrawer } from './DeliveryLogDrawer';
import { SecretModal } from './SecretModal';
import './texts';
import { WebhookFormModal } from './WebhookFormModal';
import {
  MAX_WEBHOOKS,
  deleteWebhook,
  rotateSecret,
  testWebhook,
  updateWebhook,
  webhooksQuery,
  type Webhook,
} from './webhooksApi';

/** The signed-in user's webhook endpoints: one card each (phone and desktop alike). */
export function WebhooksSection() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery(webhooksQuery);
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [log, setLog] = useState<Webhook | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhooksQuery.queryKey });

  const toggle = useMutation({
    mutationFn: (h: Webhook) => updateWebhook(h.id, { enabled: !h.enabled }),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: deleteWebhook, onSuccess: refresh });
  const rotate = useMutation({
    mutationFn: rotateSecret,
    onSuccess: async (answer) => {
      setSecret(answer.secret);
      await refresh();
    },
  });
  const test = useMutation({
    mutationFn: testWebhook,
    onSuccess: (r) => {
      if (r.state === 'delivered') message.success(t('webhooks.testOk', { status: r.status }));
      else message.error(t('webhooks.testFailed', { reason: r.status ?? r.error }));
    },
  });

  if (list.isPending) return <Skeleton active />;
  if (list.isError)
    return (
      <Problem
        title={t('webhooks.loadFailed')}
        testId="webhooks-error"
        extra={<Button onClick={() => void list.refetch()}>{t('webhooks.retry')}</Button>}
      />
    );
  const hooks = list.data;
  const full = hooks.length >= MAX_WEBHOOKS;
  return (
    <Flex vertical gap={12} style={{ maxWidth: 720 }} data-testid="webhooks">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('webhooks.intro')} {t('webhooks.docs')}
      </Typography.Paragraph>
      <Flex gap={8} align="center" wrap>
        <Button type="primary" disabled={full} onClick={() => setEditing('new')}>
          {t('webhooks.add')}
        </Button>
        {full && (
          <Typography.Text type="secondary">
            {t('webhooks.limit', { max: MAX_WEBHOOKS })}
          </Typography.Text>
        )}
      </Flex>
      {hooks.length === 0 && <Empty description={t('webhooks.empty')} />}
      {hooks.map((h) => (
        <Card key={h.id} size="small" data-testid="webhook-card">
          <Flex justify="space-between" align="start" gap={8}>
            <Typography.Text strong ellipsis={{ tooltip: h.url }} style={{ minWidth: 0 }}>
              {h.url}
            </Typography.Text>
            <Switch
              checked={h.enabled}
              loading={toggle.isPending && toggle.variables?.id === h.id}
              onChange={() => toggle.mutate(h)}
              aria-label={t('webhooks.enabled')}
            />
          </Flex>
          <Flex gap={4} wrap style={{ margin: '8px 0' }}>
            {h.kinds.length === 0 ? (
              <Tag>{t('webhooks.kindsAll')}</Tag>
            ) : (
              h.kinds.map((k) => <Tag key={k}>{t(`webhooks.kind.${k}`)}</Tag>)
            )}
            <Tag color={h.minSeverity === 'alarm' ? 'red' : 'orange'}>
              ≥ {t(`webhooks.severity.${h.minSeverity}`)}
            </Tag>
          </Flex>
          <Typography.Text type="secondary">
            {t('webhooks.secret')}: <Typography.Text code>{h.secretHint}</Typography.Text>
          </Typography.Text>
          <Flex gap={8} wrap style={{ marginTop: 8 }}>
            <Button size="small" onClick={() => setEditing(h)}>
              {t('webhooks.edit')}
            </Button>
            <SubmitButton
              size="small"
              loading={test.isPending && test.variables === h.id}
              onClick={() => test.mutate(h.id)}
            >
              {t('webhooks.test')}
            </SubmitButton>
            <Button size="small" onClick={() => setLog(h)}>
              {t('webhooks.log')}
            </Button>
            <GuardedPopconfirm
              title={t('webhooks.rotateConfirm')}
              onConfirm={() => rotate.mutateAsync(h.id)}
            >
              <Button size="small">{t('webhooks.rotate')}</Button>
            </GuardedPopconfirm>
            <GuardedPopconfirm
              title={t('webhooks.deleteConfirm')}
              onConfirm={() => remove.mutateAsync(h.id)}
            >
              <Button size="small" danger>
                {t('webhooks.delete')}
              </Button>
            </GuardedPopconfirm>
          </Flex>
        </Card>
      ))}
      {editing && (
        <WebhookFormModal
          editing={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onCreated={setSecret}
        />
      )}
      {secret && <SecretModal secret={secret} onClose={() => setSecret(null)} />}
      {log && <DeliveryLogDrawer hook={log} onClose={() => setLog(null)} />}
    </Flex>
  );
}
