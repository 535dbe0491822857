import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { cancelShare } from './api';
import { plantKeys } from '@/shared/api/keys';

export interface PlantRef {
  id: number;
  name: string;
}

/** A sharee leaves a plant shared with them. */
export function useLeavePlant() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: plantKeys.all });
  return (plant: PlantRef) =>
    modal.confirm({
      title: t('plants.leave.title', { name: plant.name }),
      content: t('plants.leave.text'),
      okText: t('plants.leave.submit'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await cancelShare(plant.id);
        message.success(t('plants.leave.done'));
        await invalidate();
      },
    });
}
