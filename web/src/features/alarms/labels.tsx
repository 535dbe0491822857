import { Badge, Tag } from 'antd';
import type { TFunction } from 'i18next';

/** A case's severity as a coloured badge. */
export function SeverityBadge({ severity, t }: { severity: string; t: TFunction }) {
  return (
    <Badge
      color={severity === 'alarm' ? '#cf1322' : '#faad14'}
      text={t(`alarms.severity.${severity}`, { defaultValue: severity })}
      data-testid="alarm-severity"
      data-severity={severity}
    />
  );
}

const STATE_COLOR: Record<string, string> = {
  open: 'error',
  acknowledged: 'processing',
  closed: 'default',
};

export function StateTag({ state, t }: { state: string; t: TFunction }) {
  return (
    <Tag color={STATE_COLOR[state]} style={{ marginInlineEnd: 0 }} data-testid="alarm-state">
      {t(`alarms.state.${state}`, { defaultValue: state })}
    </Tag>
  );
}
