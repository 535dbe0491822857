import { useQuery } from '@tanstack/react-query';
import { Empty, Spin, Tag, Timeline, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/shared/i18n';
import { noteText, timelineQuery } from './api';

/** The firmware/system update log as a timeline; an empty state when nothing can be read. */
export function UpdateLog() {
  const { t } = useTranslation();
  const { data, isPending } = useQuery(timelineQuery);
  if (isPending) return <Spin />;
  if (!data || data.length === 0)
    return <Empty description={t('updateLog.empty')} data-testid="update-log-empty" />;
  const lang = currentLanguage();
  return (
    <Timeline
      items={data.map((note, i) => ({
        key: note.id ?? `${note.version}-${i}`,
        content: (
          <div>
            <Typography.Text strong>{note.version}</Typography.Text>{' '}
            <Tag>{t(`updateLog.kind.${note.type}`, { defaultValue: String(note.type) })}</Tag>
            <Typography.Text type="secondary">
              {note.releaseTime || note.createAt
                ? dayjs(note.releaseTime ?? note.createAt).format('YYYY-MM-DD')
                : ''}
              {note.announcer ? ` · ${note.announcer}` : ''}
            </Typography.Text>
            <Typography.Paragraph style={{ whiteSpace: 'pre-line', marginTop: 4 }}>
              {noteText(note, lang)}
            </Typography.Paragraph>
          </div>
        ),
      }))}
    />
  );
}
