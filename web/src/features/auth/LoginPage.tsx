import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Card, Flex, Form, Input, theme, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { useServerConfig } from '@/shared/config';
import { ErrorCode, isApiError } from '@/shared/http';
import { permissionQuery } from '@/shared/permissions';
import { clearSignInNotice, peekSignInNotice, SIGNING_IN_EVENT } from '@/shared/session';
import { THEME_META, useThemeKind } from '@/shared/theme';
import { CodeButton } from '@/shared/ui/CodeButton';
import { LanguageSwitch } from '@/shared/ui/LanguageSwitch';
import { LogoMark } from '@/shared/ui/Logo';
// the module itself, not the guarded index: that one reaches Modal and Popconfirm too
import { SubmitButton } from '@/shared/ui/SubmitButton';
import { userQuery } from '@/shared/user';
import { formRule, requiredRule, account, password } from '@/shared/validators';
import { getCode, signIn } from './api';

interface LoginForm {
  account: string;
  password: string;
  /** The sign-in code, asked for once the server says sign-in is locked (109). */
  code?: string;
}

/** Notices other screens leave for this page, named here so that their texts are among the
 * first screens' (scripts/split-en-texts.mjs keeps the keys these files name). */
const NOTICES: Record<string, string> = {
  'preferences.passwordChanged': 'preferences.passwordChanged',
};

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const kind = useThemeKind();
  const { token } = theme.useToken();
  const { config } = useServerConfig();
  const { message } = App.useApp();
  const [form] = Form.useForm<LoginForm>();
  // read while rendering, cleared once shown (a render may be discarded and run again)
  const [notice] = useState(peekSignInNotice);
  useEffect(clearSignInNotice, []);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Too many failed sign-ins (109): a code sent to the account gets the owner in.
  const [locked, setLocked] = useState(false);
  const title = t(THEME_META[kind].titleKey);

  const onFinish = async (values: LoginForm) => {
    setBusy(true);
    setError(null);
    window.dispatchEvent(new Event(SIGNING_IN_EVENT));
    try {
      await signIn(values.account, values.password, locked ? values.code : undefined);
      queryClient.clear();
      // what the signed-in frame asks first, asked now: beside its code, not after it
      void queryClient.prefetchQuery(userQuery);
      void queryClient.prefetchQuery(permissionQuery());
      const from = (location.state as { from?: string } | null)?.from;
      void navigate(from && from !== '/login' ? from : '/', { replace: true });
    } catch (e) {
      if (!isApiError(e)) return;
      if (e.code === ErrorCode.SignInLocked) setLocked(true);
      if (e.code === ErrorCode.CodeWrong || e.code === ErrorCode.CodeExpired)
        form.setFields([{ name: 'code', errors: [e.message] }]);
      else setError(e.message);
    } finally {
      setBusy(false);
    }
  };

  const sendCode = async (): Promise<boolean> => {
    try {
      const { account: value } = await form.validateFields(['account']);
      await getCode(value, 'login');
      message.success(t('auth.codeSent'));
      return true;
    } catch (e) {
      if (isApiError(e)) form.setFields([{ name: 'code', errors: [e.message] }]);
      return false;
    }
  };

  return (
    <div className={`login-page login-${kind}`}>
      <div className="login-hero" aria-hidden={false}>
        <Flex align="center" gap={12}>
          <LogoMark size={44} inverse={kind === 'branded'} />
          <Typography.Title level={3} style={{ margin: 0, color: '#fff' }}>
            {title}
          </Typography.Title>
        </Flex>
        <div>
          <Typography.Title level={1} className="login-hero-title">
            {t('login.heroTitle')}
          </Typography.Title>
          <Typography.Paragraph className="login-hero-text">
            {t('login.heroText')}
          </Typography.Paragraph>
        </div>
        <Typography.Text className="login-hero-foot">
          {config.version ? t('layout.version', { version: config.version }) : '\u00a0'}
        </Typography.Text>
      </div>
      <div className="login-side">
        <Flex justify="space-between" align="center" style={{ padding: 16 }}>
          {/* the logo and name, on screens too narrow for the hero (styles.css) */}
          <Flex align="center" gap={10} className="login-brand-compact" data-testid="login-brand">
            <LogoMark size={32} />
            <Typography.Text strong style={{ fontSize: 16 }}>
              {title}
            </Typography.Text>
          </Flex>
          <LanguageSwitch />
        </Flex>
        <Flex flex={1} align="center" justify="center" style={{ padding: '0 16px 48px' }}>
          <Card
            className="login-card"
            variant="borderless"
            style={{ background: token.colorBgContainer }}
          >
            <Flex vertical gap={4} style={{ marginBottom: 24 }}>
              <Typography.Title level={2} style={{ margin: 0 }}>
                {t('login.title')}
              </Typography.Title>
              <Typography.Text type="secondary">
                {t('login.subtitle', { name: title })}
              </Typography.Text>
            </Flex>
            {notice && (
              <Alert
                type="info"
                showIcon
                title={t(NOTICES[notice] ?? notice)}
                style={{ marginBottom: 16 }}
              />
            )}
            {error && (
              <Alert
                type="error"
                showIcon
                title={error}
                style={{ marginBottom: 16 }}
                data-testid="login-error"
              />
            )}
            <Form<LoginForm>
              form={form}
              layout="vertical"
              requiredMark={false}
              onFinish={onFinish}
              size="large"
            >
              <Form.Item
                name="account"
                label={t('login.account')}
                rules={[requiredRule(), formRule(account)]}
              >
                <Input
                  prefix={<UserOutlined />}
                  autoComplete="username"
                  placeholder={t('login.accountPlaceholder')}
                />
              </Form.Item>
              <Form.Item
                name="password"
                label={t('login.password')}
                rules={[requiredRule(), formRule(password)]}
              >
                <Input.Password
                  prefix={<LockOutlined />}
                  autoComplete="current-password"
                  placeholder={t('login.passwordPlaceholder')}
                />
              </Form.Item>
              {locked && (
                <Form.Item label={t('auth.code')} required extra={t('login.lockedHelp')}>
                  <Flex gap={8}>
                    <Form.Item name="code" noStyle rules={[requiredRule()]}>
                      <Input
                        autoComplete="one-time-code"
                        aria-label={t('auth.code')}
                        data-testid="login-code"
                      />
                    </Form.Item>
                    <CodeButton
                      onSend={sendCode}
                      label={t('login.sendCode')}
                      testId="login-send-code"
                    />
                  </Flex>
                </Form.Item>
              )}
              <Flex justify="flex-end" style={{ marginTop: -8, marginBottom: 16 }}>
                <Link to="/forget">{t('login.forgot')}</Link>
              </Flex>
              <SubmitButton
                type="primary"
                htmlType="submit"
                block
                loading={busy}
                data-testid="login-submit"
              >
                {locked ? t('login.submitWithCode') : t('login.submit')}
              </SubmitButton>
            </Form>
            <Flex justify="center" gap={6} style={{ marginTop: 20 }}>
              <Typography.Text type="secondary">{t('login.noAccount')}</Typography.Text>
              <Link to="/reg">{t('login.register')}</Link>
            </Flex>
            <Flex justify="center" gap={16} style={{ marginTop: 12 }}>
              <Link to="/app/download">{t('login.appDownload')}</Link>
              <Link to="/firmwareLogging">{t('login.updateLog')}</Link>
            </Flex>
          </Card>
        </Flex>
      </div>
    </div>
  );
}
