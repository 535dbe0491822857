import { App, Card, Checkbox, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Limits } from '@/shared/api/limits.gen';
import { ErrorCode, isApiError } from '@/shared/http';
import { CodeButton } from '@/shared/ui/CodeButton';
import { PublicShell } from '@/shared/ui/PublicShell';
import { SubmitButton } from '@/shared/ui/guarded';
import {
  account,
  confirmMatches,
  formRule,
  maxLength,
  newPassword,
  requiredRule,
} from '@/shared/validators';
import { signUp } from './api';
import { useSendCode } from './useSendCode';

interface RegisterForm {
  account: string;
  code: string;
  nickname?: string;
  password: string;
  confirm: string;
  agree: boolean;
}

/** The field a refused sign-up concerns. */
const registerField = (code: number): keyof RegisterForm => {
  if (code === ErrorCode.PasswordTooCommon) return 'password';
  const onCode: number[] = [ErrorCode.CodeWrong, ErrorCode.CodeExpired, ErrorCode.InvalidParameter];
  return onCode.includes(code) ? 'code' : 'account';
};

export default function RegisterPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterForm>();
  const [busy, setBusy] = useState(false);

  const fieldError = (name: keyof RegisterForm, text: string) =>
    form.setFields([{ name, errors: [text] }]);

  const sendCode = useSendCode(form, 'register');

  const onFinish = async (values: RegisterForm) => {
    setBusy(true);
    try {
      await signUp({
        account: values.account.trim(),
        password: values.password,
        code: values.code.trim(),
        ...(values.nickname?.trim() ? { nickname: values.nickname.trim() } : {}),
      });
      message.success(t('register.done'));
      void navigate('/login', { replace: true });
    } catch (e) {
      if (isApiError(e)) fieldError(registerField(e.code), e.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicShell>
      <Card>
        <Typography.Title level={3}>{t('register.title')}</Typography.Title>
        <Form<RegisterForm> form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
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
            name="nickname"
            label={t('profile.nickname')}
            rules={[formRule((v) => maxLength(v, Limits.SignupRequest.nickname.maxLength))]}
          >
            <Input />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('login.password')}
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
          <Form.Item
            name="agree"
            valuePropName="checked"
            rules={[
              {
                validator: (_r, v: boolean) =>
                  v ? Promise.resolve() : Promise.reject(new Error(t('register.mustAgree'))),
              },
            ]}
          >
            <Checkbox>
              {t('register.agreePrefix')}{' '}
              <Link to="/register/userAgreement" target="_blank">
                {t('agreement.title')}
              </Link>
            </Checkbox>
          </Form.Item>
          <SubmitButton type="primary" htmlType="submit" block loading={busy}>
            {t('register.submit')}
          </SubmitButton>
        </Form>
        <Flex justify="center" gap={6} style={{ marginTop: 16 }}>
          <Typography.Text type="secondary">{t('register.haveAccount')}</Typography.Text>
          <Link to="/login">{t('login.submit')}</Link>
        </Flex>
      </Card>
    </PublicShell>
  );
}
