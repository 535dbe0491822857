import { Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ageOf } from './lastMessage';

/** The time now, read again every `everyMs` (so an age keeps counting between reads). */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * When the portal last heard from a gateway (its newest message of any kind, not its
 * connection): the time as the column says (UTC), and how long ago.
 */
export function LastMessage({ lldt, at }: { lldt: string | null; at: string | null | undefined }) {
  const { t } = useTranslation();
  const age = ageOf(at, useNow(5_000));
  if (!lldt || !age) {
    return <Typography.Text type="secondary">{t('gateways.noMessage')}</Typography.Text>;
  }
  return (
    <span data-testid="gateway-last-message" data-at={at ?? ''}>
      {lldt}{' '}
      <Typography.Text type="secondary">
        · {t(`gateways.ago.${age.unit}`, { count: age.count })}
      </Typography.Text>
    </span>
  );
}
