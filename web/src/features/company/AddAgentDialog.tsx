import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { account as accountRule, formRule, requiredRule } from '@/shared/validators';
import { addAgent, AGENT_REFUSALS, checkAgent, companyKeys } from './api';

/**
 * Asks a company, by its administrator's account, to become an agent; it is one once that
 * company accepts. The account is checked when the field is left (oneself, not another
 * company's administrator, already an agent or asked) and on submit.
 */
export default function AddAgentDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ account: string; message?: string }>();
  const add = useMutation({
    mutationFn: (v: { account: string; message?: string }) => addAgent(v.account, v.message ?? ''),
    onSuccess: async () => {
      message.success(t('consent.agent.sent'));
      await queryClient.invalidateQueries({ queryKey: companyKeys.all });
      onClose();
    },
    onError: (e) => {
      if (isApiError(e) && AGENT_REFUSALS.includes(e.code)) {
        form.setFields([{ name: 'account', errors: [e.message] }]);
      }
    },
  });

  return (
    <GuardedModal
      open
      title={t('agents.addTitle')}
      onCancel={onClose}
      okText={t('agents.add')}
      okButtonProps={{ loading: add.isPending, 'data-testid': 'agent-submit' }}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('agents.addHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => add.mutate(v)}>
        <Form.Item
          name="account"
          label={t('agents.account')}
          validateTrigger={['onChange', 'onBlur']}
          validateFirst
          rules={[
            requiredRule(),
            formRule(accountRule),
            {
              validateTrigger: 'onBlur',
              validator: async (_rule, value: unknown) => {
                if (typeof value !== 'string' || !value.trim() || accountRule(value)) return;
                let refusal: { message: string } | null = null;
                try {
                  refusal = await checkAgent(value);
                } catch {
                  // checked again when the agent is added
                }
                if (refusal) throw new Error(refusal.message);
              },
            },
          ]}
        >
          <Input
            data-keyfilter="off"
            autoComplete="off"
            placeholder={t('login.accountPlaceholder')}
            data-testid="agent-account"
          />
        </Form.Item>
        <Form.Item name="message" label={t('consent.agent.message')}>
          <Input.TextArea
            rows={2}
            maxLength={Limits.AgentAccount.message.maxLength}
            showCount
            data-keyfilter="off"
            data-testid="agent-message"
          />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
