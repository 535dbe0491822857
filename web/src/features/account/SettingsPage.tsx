import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '@/shared/user';
import { NotifyForm } from './NotifyForm';
import { PasswordForm } from './PasswordForm';
import { PreferencesForm } from './PreferencesForm';
import { ProfileForm } from './ProfileForm';

/** /edit: personal settings (profile and avatar, password, temperature unit). */
export default function SettingsPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return (
    <Card title={t('settings.title')}>
      <Tabs
        items={[
          { key: 'profile', label: t('settings.profile'), children: <ProfileForm user={user} /> },
          {
            key: 'password',
            label: t('settings.password'),
            children: <PasswordForm userId={user.id} />,
          },
          { key: 'preferences', label: t('settings.preferences'), children: <PreferencesForm /> },
          {
            key: 'notify',
            label: t('notify.title'),
            children: <NotifyForm user={user} />,
          },
        ]}
      />
    </Card>
  );
}
