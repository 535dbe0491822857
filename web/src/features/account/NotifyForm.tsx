import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Flex, Form, Input, InputNumber, Skeleton, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { CodeButton } from '@/shared/ui/CodeButton';
import { SubmitButton } from '@/shared/ui/guarded';
import type { CurrentUser } from '@/shared/user';
import { email as emailRule, formRule, integerInRange, requiredRule } from '@/shared/validators';
import {
  browserZone,
  getNotify,
  notifyQueryKey,
  OFFLINE_MINUTES,
  saveNotify,
  sendNotifyCode,
} from './api';
import './texts';

interface Values {
  enabled: boolean;
  email: string;
  offlineMinutes: number | null;
  code?: string;
  quietEnabled: boolean;
  quietFrom: string;
  quietTo: string;
}

/**
 * Abnormal event e-mails: on/off, the address (another address than the account's needs a
 * code), and how long a gateway stays offline before it is mailed.
 */
export function NotifyForm({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const stored = useQuery({ queryKey: notifyQueryKey, queryFn: getNotify });
  const enabled = Form.useWatch('enabled', form) ?? false;
  const quiet = Form.useWatch('quietEnabled', form) ?? false;
  const zone = browserZone();
  const address = (Form.useWatch('email', form) ?? '').trim();
  const accountEmail = (user.email ?? '').trim().toLowerCase();
  const savedEmail = (stored.data?.email ?? '').trim().toLowerCase();
  const needsCode =
    enabled &&
    address !== '' &&
    address.toLowerCase() !== accountEmail &&
    address.toLowerCase() !== savedEmail;

  useEffect(() => {
    if (stored.data) {
      form.setFieldsValue({
        enabled: stored.data.enabled,
        email: stored.data.email || user.email || '',
        offlineMinutes: stored.data.offlineMinutes,
        quietEnabled: stored.data.quietEnabled,
        quietFrom: stored.data.quietFrom,
        quietTo: stored.data.quietTo,
      });
    }
  }, [stored.data, form, user.email]);

  const save = useMutation({
    mutationFn: (v: Values) =>
      saveNotify({
        enabled: v.enabled,
        email: v.email.trim(),
        offlineMinutes: v.offlineMinutes ?? undefined,
        code: needsCode ? v.code?.trim() : undefined,
        quietEnabled: v.quietEnabled,
        quietFrom: v.quietFrom,
        quietTo: v.quietTo,
        quietZone: zone,
      }),
    onSuccess: async () => {
      form.setFieldsValue({ code: '' });
      // Re-read first: the refetch resets the form, so "Saved" must not come before it.
      await queryClient.invalidateQueries({ queryKey: notifyQueryKey });
      message.success(t('common.saved'));
    },
    onError: (e) => {
      if (!isApiError(e)) return;
      // a bad delay or quiet time (code 4 naming the field) belongs to its own field
      const named = (['offlineMinutes', 'quietFrom', 'quietTo'] as const).find((f) =>
        new RegExp(`${f}\\s*$`).test(e.message),
      );
      const field = named ?? 'code';
      form.setFields([{ name: field, errors: [e.message] }]);
    },
  });

  if (stored.isPending) return <Skeleton active />;
  return (
    <Form<Values>
      form={form}
      layout="vertical"
      style={{ maxWidth: 480 }}
      onFinish={(v) => save.mutate(v)}
      data-testid="notify-form"
    >
      <Typography.Paragraph type="secondary">{t('notify.intro')}</Typography.Paragraph>
      <Form.Item name="enabled" label={t('notify.enabled')} valuePropName="checked">
        <Switch data-testid="notify-switch" />
      </Form.Item>
      <Form.Item
        name="email"
        label={t('notify.email')}
        rules={enabled ? [requiredRule(), formRule(emailRule)] : [formRule(emailRule)]}
      >
        <Input data-keyfilter="off" disabled={!enabled} />
      </Form.Item>
      <Form.Item
        name="offlineMinutes"
        label={t('notify.offlineMinutes')}
        extra={t('notify.offlineHint')}
        rules={[
          ...(enabled ? [requiredRule()] : []),
          formRule((v) => integerInRange(v, OFFLINE_MINUTES.min, OFFLINE_MINUTES.max)),
        ]}
      >
        {/* no min/max on the input: it would clamp silently; the rule says what is allowed */}
        <InputNumber
          precision={0}
          disabled={!enabled}
          style={{ width: 160 }}
          data-testid="notify-offline"
        />
      </Form.Item>
      {needsCode && (
        <Form.Item label={t('auth.code')} required extra={t('notify.codeHint')}>
          <Flex gap={8}>
            <Form.Item name="code" noStyle rules={[requiredRule()]}>
              <Input maxLength={6} inputMode="numeric" />
            </Form.Item>
            <CodeButton
              onSend={async () => {
                try {
                  await form.validateFields(['email']);
                  await sendNotifyCode(address);
                  message.success(t('auth.codeSent'));
                  return true;
                } catch (e) {
                  if (isApiError(e)) form.setFields([{ name: 'code', errors: [e.message] }]);
                  return false;
                }
              }}
            />
          </Flex>
        </Form.Item>
      )}
      <Form.Item
        name="quietEnabled"
        label={t('webhooks.quiet.enabled')}
        extra={t('webhooks.quiet.hint')}
        valuePropName="checked"
      >
        <Switch data-testid="quiet-switch" />
      </Form.Item>
      <Flex gap={12} wrap align="end">
        <Form.Item
          name="quietFrom"
          label={t('webhooks.quiet.from')}
          rules={quiet ? [requiredRule()] : []}
        >
          <Input type="time" disabled={!quiet} style={{ width: 140 }} data-testid="quiet-from" />
        </Form.Item>
        <Form.Item
          name="quietTo"
          label={t('webhooks.quiet.to')}
          rules={quiet ? [requiredRule()] : []}
        >
          <Input type="time" disabled={!quiet} style={{ width: 140 }} data-testid="quiet-to" />
        </Form.Item>
      </Flex>
      <Typography.Paragraph type="secondary">
        {t('webhooks.quiet.zone', { zone })}
      </Typography.Paragraph>
      <SubmitButton type="primary" htmlType="submit" loading={save.isPending}>
        {t('common.save')}
      </SubmitButton>
    </Form>
  );
}
