import { Badge, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { enrollmentColor, eventBadge } from './status';

/** An enrollment's status (and "opted out" beside an accepted one). */
export function EnrollmentStatusTag({ status, optedOut }: { status: string; optedOut?: boolean }) {
  const { t } = useTranslation();
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      <Tag
        color={enrollmentColor(status)}
        data-testid="hub-enrollment-status"
        data-status={status}
        style={{ marginInlineEnd: optedOut ? 4 : 0 }}
      >
        {t(`energyHub.status.${status}`, { defaultValue: status })}
      </Tag>
      {optedOut && (
        <Tag color="orange" style={{ marginInlineEnd: 0 }} data-testid="hub-opted-out">
          {t('energyHub.optedOut')}
        </Tag>
      )}
    </span>
  );
}

/** An event's status: pending (not started), active, completed, cancelled. */
export function EventStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <span style={{ whiteSpace: 'nowrap' }} data-testid="hub-event-status" data-status={status}>
      <Badge
        status={eventBadge(status)}
        text={t(`energyHub.eventStatus.${status}`, { defaultValue: status })}
      />
    </span>
  );
}
