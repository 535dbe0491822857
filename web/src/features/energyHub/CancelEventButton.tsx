import { StopOutlined } from '@ant-design/icons';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '@/shared/permissions';
import { SubmitButton } from '@/shared/ui/guarded';
import { cancelEvent } from './api';
import { cancelMeaning, cancellable } from './status';
import type { DrEvent } from './types';
import { useEnergyHubMutation } from './useEnergyHubMutation';

/**
 * Cancel an event, after a confirmation that says what it means for the caller: the utility
 * cancels its own event for everyone (or opts every plant out of a VTN's event); a participant
 * opts their own plants out.
 */
export function CancelEventButton({
  event,
  size = 'small',
  framed = false,
}: {
  event: Pick<DrEvent, 'id' | 'name' | 'source' | 'status' | 'optedOut'>;
  size?: 'small' | 'middle';
  /** On a line of its own (a drawer's action row); nothing at all when it does not apply. */
  framed?: boolean;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const mayCancel = useCan('energyhub.event.cancel');
  const utility = useCan('sys.energyhub.edit');
  const cancel = useEnergyHubMutation(() => cancelEvent(event.id), 'energyHub.eventCancelled');
  if (!(mayCancel || utility) || !cancellable(event)) return null;
  const meaning = cancelMeaning(event, utility);
  const button = (
    <SubmitButton
      size={size}
      danger
      icon={<StopOutlined />}
      loading={cancel.isPending}
      onClick={(e) => {
        e.stopPropagation();
        modal.confirm({
          title: t(`energyHub.cancelEvent.${meaning}.title`, { name: event.name }),
          content: t(`energyHub.cancelEvent.${meaning}.body`),
          okText: t(`energyHub.cancelEvent.${meaning}.ok`),
          cancelText: t('energyHub.keep'),
          okButtonProps: { danger: true, 'data-testid': 'hub-confirm-ok' },
          onOk: () => cancel.mutateAsync(undefined),
        });
      }}
      data-testid="hub-event-cancel"
    >
      {t(meaning === 'cancelAll' ? 'energyHub.cancel' : 'energyHub.optOutEvent')}
    </SubmitButton>
  );
  return framed ? <div>{button}</div> : button;
}
