import { Descriptions, Divider, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isOpen } from '@/shared/commands/api';
import { MISSING } from '@/shared/format/number';
import { outcomeColor } from '@/shared/ui/status';
import type { DebugEntry } from '../api';
import { FrameView } from '../FrameView';

/** One exchange: its status, the request, the reply and the reply decoded. */
export function Exchange({
  entry,
  startAddress,
}: {
  entry: DebugEntry;
  /** The first register read, to number the decoded values. */
  startAddress?: number;
}) {
  const { t } = useTranslation();
  return (
    <div style={{ marginTop: 16 }}>
      <Descriptions
        size="small"
        column={1}
        items={[
          {
            key: 'status',
            label: t('debug.log.status'),
            children: (
              <Space>
                <Tag color={outcomeColor(entry.status)} data-testid="debug-status">
                  {t(`debug.status.${entry.status}`)}
                </Tag>
                {isOpen(entry.status) && <Spin size="small" />}
              </Space>
            ),
          },
          {
            key: 'request',
            label: t('debug.log.request'),
            children: <Typography.Text code>{entry.request}</Typography.Text>,
          },
          {
            key: 'reply',
            label: t('debug.log.reply'),
            children: entry.reply ? (
              <Typography.Text code copyable data-testid="debug-reply">
                {entry.reply}
              </Typography.Text>
            ) : (
              MISSING
            ),
          },
          ...(entry.message
            ? [{ key: 'message', label: t('debug.log.message'), children: entry.message }]
            : []),
        ]}
      />
      {entry.reply && (
        <>
          <Divider titlePlacement="start">{t('debug.send.decoded')}</Divider>
          <FrameView
            hex={entry.reply}
            direction="response"
            startAddress={startAddress}
            testId="reply-view"
          />
        </>
      )}
    </div>
  );
}
