import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Avatar, Button, Flex, Form, Input, Radio, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
import { SubmitButton } from '@/shared/ui/guarded';
import { roleLabel, userQuery, type CurrentUser } from '@/shared/user';
import { avatarFile, email, formRule, maxLength, requiredRule } from '@/shared/validators';
import { updateProfile, uploadAvatar, type Profile } from './api';

const PHONE = /^\+?\d{6,15}$/;
const PROFILE = Limits.ProfileRequest;

export function ProfileForm({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Profile>();

  const save = useMutation({
    mutationFn: (values: Profile) => updateProfile(user.id, values),
    onSuccess: async () => {
      message.success(t('common.saved'));
      await queryClient.invalidateQueries({ queryKey: userQuery.queryKey });
    },
  });
  const avatar = useMutation({
    mutationFn: (file: File) => uploadAvatar(user.id, file),
    onSuccess: async () => {
      message.success(t('preferences.avatarSaved'));
      await queryClient.invalidateQueries({ queryKey: userQuery.queryKey });
    },
  });

  return (
    <Flex gap={48} wrap>
      <Flex vertical align="center" gap={12} style={{ minWidth: 160 }}>
        <Avatar size={96} src={user.avatar || undefined} icon={<UserOutlined />} />
        <Upload
          accept=".jpg,.jpeg,.png"
          showUploadList={false}
          beforeUpload={(file) => {
            const problem = avatarFile(file);
            if (problem) {
              message.error(t(problem.key, problem.values ?? {}));
              return Upload.LIST_IGNORE;
            }
            avatar.mutate(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={avatar.isPending}>
            {t('preferences.changeAvatar')}
          </Button>
        </Upload>
        <span className="muted-small">{t('preferences.avatarHint')}</span>
      </Flex>
      <Form<Profile>
        form={form}
        layout="vertical"
        style={{ flex: 1, minWidth: 280, maxWidth: 480 }}
        initialValues={{
          nickname: user.nickname ?? '',
          name: user.name ?? '',
          gender: user.gender ?? 0,
          mobile: user.mobile ?? '',
          email: user.email ?? '',
        }}
        onFinish={(values) => save.mutate(values)}
      >
        <Form.Item
          name="nickname"
          label={t('profile.nickname')}
          rules={[requiredRule(), formRule((v) => maxLength(v, PROFILE.nickname.maxLength))]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('profile.name')}
          rules={[formRule((v) => maxLength(v, PROFILE.name.maxLength))]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="gender" label={t('profile.gender')}>
          <Radio.Group
            options={[
              { value: 1, label: t('profile.male') },
              { value: 2, label: t('profile.female') },
              { value: 0, label: t('profile.unspecified') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="mobile"
          label={t('profile.mobile')}
          rules={[formRule((v) => (PHONE.test(String(v)) ? null : { key: 'validation.phone' }))]}
        >
          <Input />
        </Form.Item>
        <Form.Item label={t('home.role')}>
          <span data-testid="role-name">{roleLabel(user, t)}</span>
        </Form.Item>
        <Form.Item name="email" label={t('profile.email')} rules={[formRule(email)]}>
          <Input />
        </Form.Item>
        <SubmitButton type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </SubmitButton>
      </Form>
    </Flex>
  );
}
