import { Card, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ErrorCode, isApiError } from '@/shared/http';
import { CodeButton } from '@/shared/ui/CodeButton';
import { PublicShell } from '@/shared/ui/PublicShell';
import { SubmitButton } from '@/shared/ui/guarded';
import { account, confirmMatches, formRule, newPassword, requiredRule } from '@/shared/validators';
import { resetPassword } from './api';
import { useSendCode } from './useSendCode';

interface ForgetForm {
  account: string;
  code: string;
  password: string;
  confirm: string;
}

export default function ForgetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<ForgetForm>();
  const [busy, setBusy] = useState(false);

  const fieldError = (name: keyof ForgetForm, text: string) =>
    form.setFields([{ name, errors: [text] }]);

  const sendCode = useSendCode(form, 'reset');

  const onFinish = async (values: ForgetForm) => {
    setBusy(true);
    try {
      await resetPassword({
        account: values.account.trim(),
        password: values.password,
        code: values.code.trim(),
      });
      void navigate('/resetSuccessful', { replace: true });
    } catch (e) {
      if (isApiError(e)) {
        const field = {
          [ErrorCode.NotRegistered]: 'account',
          [ErrorCode.PasswordTooCommon]: 'password',
        } as Partial<Record<number, keyof ForgetForm>>;
        fieldError(field[e.code] ?? 'code', e.message);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicShell>
      <Card>
        <Typography.Title level={3}>{t('forget.title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('forget.intro')}</Typography.Paragraph>
        <Form<ForgetForm> form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
          <Form.Item
            name="account"
            label={t('login.account')}
            rules={[requiredRule(), formRule(account)]}
          >
            <Input autoComplete="username" placeholder={t('login.accountPlaceholder')} />
          </Form.Item>
          <Form.Item label={t('auth.code')} required>
            <Flex gap={8}>
              <Form.Item name="code" noStyle rules={[requiredRule()]}>
                <Input autoComplete="one-time-code" aria-label={t('auth.code')} />
              </Form.Item>
              <CodeButton onSend={sendCode} />
            </Flex>
          </Form.Item>
          <Form.Item
            name="password"
            label={t('forget.newPassword')}
            rules={[requiredRule(), formRule(newPassword)]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('auth.confirmPassword')}
            dependencies={['password']}
            rules={[
              requiredRule(),
              formRule((v) => confirmMatches(v, form.getFieldValue('password'))),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <SubmitButton type="primary" htmlType="submit" block loading={busy}>
            {t('forget.submit')}
          </SubmitButton>
        </Form>
        <Flex justify="center" style={{ marginTop: 16 }}>
          <Link to="/login">{t('auth.backToLogin')}</Link>
        </Flex>
      </Card>
    </PublicShell>
  );
}
