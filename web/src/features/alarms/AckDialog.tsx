import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GuardedModal } from '@/shared/ui/guarded';
import { acknowledge, alarmKeys, type AlarmCase } from './api';

/** Acknowledges a case with an optional comment (at most 500 characters, as the server). */
export function AckDialog({ alarm, onClose }: { alarm: AlarmCase; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const ack = useMutation({
    mutationFn: () => acknowledge(alarm.id, comment),
    onSuccess: async () => {
      message.success(t('alarms.acknowledged'));
      await queryClient.invalidateQueries({ queryKey: alarmKeys.all });
      onClose();
    },
  });
  return (
    <GuardedModal
      open
      title={t('alarms.ackTitle', { plant: alarm.plantName })}
      okText={t('alarms.acknowledge')}
      cancelText={t('common.cancel')}
      onOk={() => ack.mutate()}
      okButtonProps={{ loading: ack.isPending, 'data-testid': 'alarm-ack-submit' }}
      onCancel={onClose}
    >
      <Input.TextArea
        aria-label={t('alarms.comment')}
        placeholder={t('alarms.commentHint')}
        value={comment}
        maxLength={500}
        showCount
        rows={3}
        onChange={(e) => setComment(e.target.value)}
        data-testid="alarm-ack-comment"
      />
    </GuardedModal>
  );
}
