import { App, Button, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '@/shared/permissions';
import { GuardedModal } from '@/shared/ui/guarded';
import { enrollmentAction } from './api';
import { asksFirst, needsReason, REASON_MAX, splitActions, validReason } from './status';
import type { Enrollment, EnrollmentAction } from './types';
import { useEnergyHubMutation } from './useEnergyHubMutation';

/**
 * The buttons of what the server allows on one enrollment: the participant's (with
 * energyhub.enroll) and the utility's (sys.energyhub.edit); leaving and sitting events out ask
 * first, refusing asks for a reason.
 */
export function ActionButtons({
  enrollment,
  size = 'small',
  utilityOnly = false,
}: {
  enrollment: Pick<Enrollment, 'id' | 'allowedActions' | 'stationName'>;
  size?: 'small' | 'middle';
  utilityOnly?: boolean;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const mayEnroll = useCan('energyhub.enroll');
  const utility = useCan('sys.energyhub.edit');
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const run = useEnergyHubMutation(
    ({ action, why }: { action: EnrollmentAction; why?: string }) =>
      enrollmentAction(enrollment.id, action, why),
    'energyHub.actionDone',
    () => setRejecting(false),
  );
  const { participant, utility: utilityActions } = splitActions(enrollment.allowedActions);
  const shown = [
    ...(mayEnroll && !utilityOnly ? participant : []),
    ...(utility ? utilityActions : []),
  ];
  if (shown.length === 0) return null;

  const start = (action: EnrollmentAction) => {
    if (needsReason(action)) {
      setReason('');
      setRejecting(true);
    } else if (asksFirst(action)) {
      modal.confirm({
        title: t(`energyHub.confirm.${action}.title`),
        content: t(`energyHub.confirm.${action}.body`, { plant: enrollment.stationName }),
        okText: t(`energyHub.action.${action}`),
        cancelText: t('common.cancel'),
        okButtonProps: { danger: action === 'quit', 'data-testid': 'hub-confirm-ok' },
        onOk: () => run.mutateAsync({ action }),
      });
    } else {
      run.mutate({ action });
    }
  };

  return (
    <>
      <Flex gap={6} wrap>
        {shown.map((action) => (
          <Button
            key={action}
            size={size}
            type={
              action === 'accept' || action === 'join' || action === 'resubmit'
                ? 'primary'
                : 'default'
            }
            danger={action === 'reject' || action === 'quit'}
            loading={run.isPending && run.variables?.action === action}
            onClick={(e) => {
              e.stopPropagation();
              start(action);
            }}
            data-testid={`hub-action-${action}`}
          >
            {t(`energyHub.action.${action}`)}
          </Button>
        ))}
      </Flex>
      <GuardedModal
        open={rejecting}
        title={t('energyHub.confirm.reject.title')}
        okText={t('energyHub.action.reject')}
        cancelText={t('common.cancel')}
        okButtonProps={{
          danger: true,
          disabled: !validReason(reason),
          'data-testid': 'hub-reject-ok',
        }}
        confirmLoading={run.isPending}
        onOk={() => run.mutate({ action: 'reject', why: reason.trim() })}
        onCancel={() => setRejecting(false)}
        destroyOnHidden
      >
        <Typography.Paragraph>
          {t('energyHub.confirm.reject.body', { plant: enrollment.stationName })}
        </Typography.Paragraph>
        <Input.TextArea
          aria-label={t('energyHub.reason')}
          placeholder={t('energyHub.reason')}
          value={reason}
          maxLength={REASON_MAX}
          showCount
          rows={3}
          onChange={(e) => setReason(e.target.value)}
          data-testid="hub-reject-reason"
        />
      </GuardedModal>
    </>
  );
}
