import { CopyOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Drawer, Skeleton, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { Problem } from '@/shared/ui/Problem';
import { useNarrow } from '@/shared/ui/useNarrow';
import { contentQuery, type LoggedContent } from './api';
import { DirectionTag, KindTag } from './tags';
import { formatSize, localTime, prettyPayload } from './format';

/** One message in full: what it was, and its payload (indented when it is JSON), to copy. */
export function PayloadDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const content = useQuery({ ...contentQuery(id ?? 0), enabled: id !== null });
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={t('commLog.payloadTitle')}
      size={phone ? '100%' : 640}
      destroyOnHidden
      data-testid="commlog-drawer"
    >
      {content.isError ? (
        <Problem
          title={t('commLog.payloadFailed')}
          testId="commlog-payload-error"
          extra={<Button onClick={() => void content.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : !content.data ? (
        <Skeleton active />
      ) : (
        <PayloadView m={content.data} />
      )}
    </Drawer>
  );
}

function PayloadView({ m }: { m: LoggedContent }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const shown = prettyPayload(m.payload);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(m.payload);
      message.success(t('commLog.copied'));
    } catch {
      message.error(t('commLog.copyFailed'));
    }
  };
  return (
    <>
      <Descriptions
        column={1}
        size="small"
        bordered
        style={{ marginBottom: 16 }}
        items={[
          { key: 'time', label: t('commLog.time'), children: localTime(m.at) },
          {
            key: 'direction',
            label: t('commLog.direction'),
            children: <DirectionTag d={m.direction} />,
          },
          { key: 'kind', label: t('commLog.kind'), children: <KindTag kind={m.kind} /> },
          {
            key: 'topic',
            label: t('commLog.topic'),
            children: (
              <Typography.Text code style={{ wordBreak: 'break-all' }}>
                {m.topic}
              </Typography.Text>
            ),
          },
          { key: 'size', label: t('commLog.size'), children: formatSize(m.size) },
          { key: 'command', label: t('commLog.commandId'), children: m.commandId ?? MISSING },
        ]}
      />
      {m.truncated && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('commLog.truncated')}
          data-testid="commlog-truncated"
        />
      )}
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {shown.json ? t('commLog.payloadJson') : t('commLog.payloadRaw')}
        <Button
          size="small"
          icon={<CopyOutlined />}
          style={{ marginInlineStart: 12 }}
          onClick={() => void copy()}
          data-testid="commlog-copy"
        >
          {t('commLog.copy')}
        </Button>
      </Typography.Paragraph>
      <pre
        data-testid="commlog-payload"
        data-json={shown.json}
        data-id={m.id}
        style={{
          margin: 0,
          padding: 12,
          maxHeight: '60vh',
          overflow: 'auto',
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
          fontFamily: token.fontFamilyCode,
          fontSize: 12,
          color: token.colorText,
          background: token.colorFillTertiary,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadius,
        }}
      >
        {shown.text || t('commLog.emptyPayload')}
      </pre>
    </>
  );
}
