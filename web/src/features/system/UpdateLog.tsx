import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Flex, Spin, Tag, Timeline, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/shared/i18n';
import { Problem } from '@/shared/ui/Problem';
import { noteText, timelineQuery, type VersionNote } from './api';
import { releaseMoment } from './noteForm';

/**
 * The firmware/system update log as a timeline; an empty state when nothing was published, an
 * error with a retry when it could not be read. `actions` adds buttons under each note.
 */
export function UpdateLog({ actions }: { actions?: (note: VersionNote) => ReactNode }) {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch, isFetching } = useQuery(timelineQuery);
  if (isPending) return <Spin />;
  if (isError)
    return (
      <Problem
        title={t('releaseNotes.loadFailed')}
        testId="update-log-error"
        extra={
          <Button loading={isFetching} onClick={() => void refetch()}>
            {t('common.refresh')}
          </Button>
        }
      />
    );
  if (data.length === 0)
    return <Empty description={t('updateLog.empty')} data-testid="update-log-empty" />;
  const lang = currentLanguage();
  return (
    <Timeline
      items={data.map((note, i) => {
        const at = releaseMoment(note);
        return {
          key: note.id ?? `${note.version}-${i}`,
          content: (
            <div data-testid="update-log-note">
              <Typography.Text strong>{note.version}</Typography.Text>{' '}
              <Tag>{t(`updateLog.kind.${note.type}`, { defaultValue: String(note.type) })}</Tag>
              <Typography.Text type="secondary">
                {at ? at.format('YYYY-MM-DD') : ''}
                {note.announcer ? ` · ${note.announcer}` : ''}
              </Typography.Text>
              <Typography.Paragraph
                style={{ whiteSpace: 'pre-line', marginTop: 4, marginBottom: 4 }}
                data-testid="update-log-text"
              >
                {noteText(note, lang)}
              </Typography.Paragraph>
              {actions && (
                <Flex gap={8} wrap>
                  {actions(note)}
                </Flex>
              )}
            </div>
          ),
        };
      })}
    />
  );
}
