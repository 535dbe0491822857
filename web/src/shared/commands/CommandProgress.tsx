import { useQuery } from '@tanstack/react-query';
import { Alert, Steps } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { commandQuery, isOpen, type Command } from './api';

/**
 * Follows a command to its end: sent, then applied (the device confirmed) or failed / timed
 * out, polling GET /api/v1/command/{id}. `onFinal` runs once with the final status.
 */
export function CommandProgress({ id, onFinal }: { id: number; onFinal?: (c: Command) => void }) {
  const { t } = useTranslation();
  const q = useQuery(commandQuery(id));
  const c = q.data;
  const final = c && !isOpen(c.status) ? c : null;
  useEffect(() => {
    if (final) onFinal?.(final);
    // Only the transition to final matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [final?.status]);

  if (q.isError) return <Alert type="warning" showIcon title={t('settings.command.unknown')} />;
  const status = c?.status ?? 'sent';
  const failed = status === 'failed' || status === 'timed_out';
  return (
    <div data-testid="command-progress" data-status={status}>
      <Steps
        size="small"
        current={isOpen(status) ? 1 : 2}
        status={failed ? 'error' : isOpen(status) ? 'process' : 'finish'}
        items={[
          { title: t('settings.command.sent') },
          {
            title:
              status === 'acknowledged'
                ? t('settings.command.acknowledged')
                : t('settings.command.waiting'),
          },
          {
            title: failed ? t(`settings.command.${status}`) : t('settings.command.succeeded'),
          },
        ]}
      />
      {failed && c?.message ? (
        <Alert
          style={{ marginTop: 8 }}
          type="error"
          showIcon
          title={t(`settings.command.${status}`)}
          description={c.message}
        />
      ) : null}
    </div>
  );
}
