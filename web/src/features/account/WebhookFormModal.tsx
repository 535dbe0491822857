import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { formRule, requiredRule } from '@/shared/validators';
import './texts';
import {
  ALARM_KINDS,
  URL_MAX,
  createWebhook,
  webhookUrl,
  updateWebhook,
  webhooksQuery,
  type AlarmKind,
  type Webhook,
} from './webhooksApi';

interface Values {
  url: string;
  enabled: boolean;
  kinds: AlarmKind[];
  minSeverity: 'warning' | 'alarm';
}

/** Adds an endpoint (`editing` absent) or changes one; a new endpoint's secret goes to `onCreated`. */
export function WebhookFormModal({
  editing,
  onClose,
  onCreated,
}: {
  editing?: Webhook;
  onClose: () => void;
  onCreated: (secret: string) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const save = useMutation({
    /** The new endpoint's secret, or `null` after a change. */
    mutationFn: async (v: Values): Promise<string | null> => {
      const body = { ...v, url: v.url.trim() };
      if (editing) {
        await updateWebhook(editing.id, body);
        return null;
      }
      return (await createWebhook(body)).secret;
    },
    onSuccess: async (secret) => {
      await queryClient.invalidateQueries({ queryKey: webhooksQuery.queryKey });
      if (secret) onCreated(secret);
      else message.success(t('common.saved'));
      onClose();
    },
    onError: (e) => {
      if (!isApiError(e)) return;
      const field = (['kinds', 'minSeverity'] as const).find((f) => e.message.endsWith(f));
      form.setFields([{ name: field ?? 'url', errors: [e.message] }]);
    },
  });
  return (
    <GuardedModal
      open
      title={t(editing ? 'webhooks.editTitle' : 'webhooks.addTitle')}
      onCancel={onClose}
      okText={t('common.save')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{
          url: editing?.url ?? '',
          enabled: editing?.enabled ?? true,
          kinds: editing?.kinds ?? [],
          minSeverity: editing?.minSeverity ?? 'warning',
        }}
        onFinish={(v) => save.mutate(v)}
        data-testid="webhook-form"
      >
        <Form.Item
          name="url"
          label={t('webhooks.url')}
          extra={t('webhooks.urlHint')}
          rules={[requiredRule(), formRule(webhookUrl)]}
        >
          <Input maxLength={URL_MAX} inputMode="url" data-keyfilter="off" />
        </Form.Item>
        <Form.Item name="kinds" label={t('webhooks.kinds')} extra={t('webhooks.kindsHint')}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('webhooks.kindsAll')}
            options={ALARM_KINDS.map((k) => ({ value: k, label: t(`webhooks.kind.${k}`) }))}
          />
        </Form.Item>
        <Form.Item name="minSeverity" label={t('webhooks.minSeverity')}>
          <Select
            options={(['warning', 'alarm'] as const).map((s) => ({
              value: s,
              label: t(`webhooks.severity.${s}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('webhooks.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
