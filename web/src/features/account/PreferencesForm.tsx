import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Form, Radio, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { userQuery } from '@/shared/user';
import { getPersonalized, personalizedQueryKey, savePersonalized, type Personalized } from './api';

/** The temperature unit, saved as soon as it is chosen. */
export function PreferencesForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery({
    queryKey: personalizedQueryKey,
    queryFn: getPersonalized,
  });
  const save = useMutation({
    mutationFn: savePersonalized,
    onSuccess: async (_r, body) => {
      queryClient.setQueryData<Personalized>(personalizedQueryKey, body);
      message.success(t('common.saved'));
      await queryClient.invalidateQueries({ queryKey: userQuery.queryKey });
    },
  });
  if (isPending) return <Skeleton active paragraph={{ rows: 1 }} />;
  return (
    <Form layout="vertical" style={{ maxWidth: 420 }}>
      <Form.Item label={t('preferences.tempUnit')}>
        <Radio.Group
          value={data?.tempUnit ?? 'C'}
          disabled={save.isPending}
          onChange={(e) => save.mutate({ tempUnit: e.target.value as Personalized['tempUnit'] })}
          optionType="button"
          options={[
            { value: 'C', label: t('preferences.celsius') },
            { value: 'F', label: t('preferences.fahrenheit') },
          ]}
        />
      </Form.Item>
    </Form>
  );
}
