import { MailOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Flex, Switch, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { saveSubscription, subscriptionQuery, workdataKeys } from './api';

/** The caller's monthly report e-mail of the plant (its .xlsx on the 1st of each month). */
export function SubscriptionSwitch({ plantId }: { plantId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const sub = useQuery(subscriptionQuery(plantId));
  const save = useMutation({
    mutationFn: (enabled: boolean) => saveSubscription(plantId, enabled),
    onSuccess: async (_, enabled) => {
      message.success(t(enabled ? 'workdata.subscription.on' : 'workdata.subscription.off'));
      await queryClient.invalidateQueries({ queryKey: workdataKeys.subscription(plantId) });
    },
    onError: (e) => {
      // code 4 `email`: the account has no address to send to
      if (isApiError(e) && e.code === 4) message.error(t('workdata.subscription.noEmail'));
      else if (isApiError(e)) message.error(e.message);
    },
  });
  if (sub.isError) return null;
  const hint = sub.data?.enabled
    ? t('workdata.subscription.hintOn', {
        email: sub.data.email ?? '',
        last: sub.data.lastSent ?? t('workdata.subscription.never'),
      })
    : t('workdata.subscription.hintOff');
  return (
    <Tooltip title={hint}>
      <Flex gap={6} align="center" data-testid="report-subscription">
        <MailOutlined />
        <Typography.Text>{t('workdata.subscription.label')}</Typography.Text>
        <Switch
          size="small"
          checked={sub.data?.enabled ?? false}
          loading={sub.isLoading || save.isPending}
          onChange={(v) => save.mutate(v)}
          aria-label={t('workdata.subscription.label')}
          data-testid="report-subscription-switch"
        />
      </Flex>
    </Tooltip>
  );
}
