import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '@/shared/user';
import { NotifyForm } from './NotifyForm';
import { PasswordForm } from './PasswordForm';
import { PreferencesForm } from './PreferencesForm';
import { ProfileForm } from './ProfileForm';
import { PushSection } from './PushSection';
import './texts';
import { WebhooksSection } from './WebhooksSection';

/**
 * /edit: the account's preferences (profile and avatar, password, temperature unit, event
 * e-mails and quiet hours, push notifications on this device, webhooks).
 */
export default function PreferencesPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return (
    <Card title={t('preferences.title')}>
      <Tabs
        items={[
          {
            key: 'profile',
            label: t('preferences.profile'),
            children: <ProfileForm user={user} />,
          },
          {
            key: 'password',
            label: t('preferences.password'),
            children: <PasswordForm userId={user.id} />,
          },
          { key: 'preferences', label: t('preferences.display'), children: <PreferencesForm /> },
          {
            key: 'notify',
            label: t('notify.title'),
            children: <NotifyForm user={user} />,
          },
          { key: 'push', label: t('push.tab'), children: <PushSection /> },
          { key: 'webhooks', label: t('webhooks.tab'), children: <WebhooksSection /> },
        ]}
      />
    </Card>
  );
}
