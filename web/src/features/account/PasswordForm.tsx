import { useMutation } from '@tanstack/react-query';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorCode, isApiError } from '@/shared/http';
import { SubmitButton } from '@/shared/ui/guarded';
import { signOut } from '@/shared/user';
import { confirmMatches, formRule, newPassword, requiredRule } from '@/shared/validators';
import { changePassword } from './api';

interface PasswordValues {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/** Changing the password revokes every sign-in: the user signs in again with the new one. */
export function PasswordForm({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordValues>();
  const change = useMutation({
    mutationFn: (v: PasswordValues) =>
      changePassword(userId, { oldPassword: v.oldPassword, newPassword: v.newPassword }),
    onSuccess: () => signOut('preferences.passwordChanged'),
    onError: (e) => {
      if (!isApiError(e)) return;
      const name = e.code === ErrorCode.PasswordTooCommon ? 'newPassword' : 'oldPassword';
      form.setFields([{ name, errors: [e.message] }]);
    },
  });
  return (
    <Form<PasswordValues>
      form={form}
      layout="vertical"
      style={{ maxWidth: 420 }}
      onFinish={(v) => change.mutate(v)}
    >
      <Form.Item name="oldPassword" label={t('preferences.oldPassword')} rules={[requiredRule()]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t('forget.newPassword')}
        rules={[requiredRule(), formRule(newPassword)]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('auth.confirmPassword')}
        dependencies={['newPassword']}
        rules={[
          requiredRule(),
          formRule((v) => confirmMatches(v, form.getFieldValue('newPassword'))),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <SubmitButton type="primary" htmlType="submit" loading={change.isPending}>
        {t('preferences.changePassword')}
      </SubmitButton>
    </Form>
  );
}
