import { ExperimentOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Alert, Checkbox, Flex, Form, Input, InputNumber, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { isApiError } from '@/shared/http';
import { SubmitButton } from '@/shared/ui/guarded';
import { previewFrame, type PreviewValue } from './api';
import { normalizeFrame, shownValue, type ProtocolConfig } from './config';

/** Whether the frame held the point's registers. */
const inFrame = (v: PreviewValue) => v.value !== null || v.raw !== '';

/**
 * "Test against a captured frame": the config as it is being edited decodes a pasted Modbus
 * answer (register bytes, or a whole RTU frame) on the server; nothing is stored.
 */
export function PreviewPanel({ config }: { config: ProtocolConfig }) {
  const { t } = useTranslation();
  const [frame, setFrame] = useState('');
  const [start, setStart] = useState<number | null>(null);
  const [frameError, setFrameError] = useState(false);
  const [all, setAll] = useState(false);

  const preview = useMutation({
    mutationFn: (hex: string) => previewFrame(config, hex, start),
  });
  const decode = () => {
    const hex = normalizeFrame(frame);
    setFrameError(hex === null);
    if (hex !== null) preview.mutate(hex);
  };
  const answer = preview.data;
  const shown = answer ? (all ? answer.values : answer.values.filter(inFrame)) : [];

  return (
    <Flex vertical gap={12} data-testid="preview-panel">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('protocols.preview.intro')}
      </Typography.Paragraph>
      <Form layout="vertical" onFinish={decode}>
        <Form.Item
          label={t('protocols.preview.frame')}
          validateStatus={frameError ? 'error' : undefined}
          help={frameError ? t('protocols.preview.badFrame') : undefined}
        >
          <Input.TextArea
            rows={3}
            value={frame}
            onChange={(e) => setFrame(e.target.value)}
            placeholder="01 03 04 13 88 00 64 …"
            spellCheck={false}
            style={{ fontFamily: 'monospace' }}
            data-keyfilter="off"
            data-testid="preview-frame"
          />
        </Form.Item>
        <Flex gap={12} wrap align="flex-end">
          <Form.Item
            label={t('protocols.preview.start')}
            extra={t('protocols.preview.startHint')}
            style={{ marginBottom: 0 }}
          >
            <InputNumber
              value={start}
              min={0}
              max={65535}
              precision={0}
              onChange={(v) => setStart(v === null ? null : Number(v))}
              data-testid="preview-start"
            />
          </Form.Item>
          <Form.Item style={{ marginBottom: 0 }}>
            <SubmitButton
              type="primary"
              htmlType="submit"
              icon={<ExperimentOutlined />}
              loading={preview.isPending}
              data-testid="preview-run"
            >
              {t('protocols.preview.run')}
            </SubmitButton>
          </Form.Item>
        </Flex>
      </Form>
      {preview.isError && (
        <Alert
          type="error"
          showIcon
          title={t('protocols.preview.failed')}
          description={isApiError(preview.error) ? preview.error.message : undefined}
          data-testid="preview-error"
        />
      )}
      {answer && answer.problems.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={t('protocols.preview.problems')}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {answer.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          }
          data-testid="preview-problems"
        />
      )}
      {answer && (
        <Flex gap={12} wrap align="center" justify="space-between">
          <Typography.Text type="secondary" data-testid="preview-summary">
            {t(
              answer.format === 'rtu'
                ? 'protocols.preview.readRtu'
                : 'protocols.preview.readRegisters',
              {
                start: answer.start,
                count: answer.registers,
              },
            )}
          </Typography.Text>
          <Checkbox
            checked={all}
            onChange={(e) => setAll(e.target.checked)}
            data-testid="preview-all"
          >
            {t('protocols.preview.all')}
          </Checkbox>
        </Flex>
      )}
      {answer && (
        <Table<PreviewValue>
          rowKey="key"
          size="small"
          data-testid="preview-values"
          dataSource={shown}
          scroll={{ x: 'max-content' }}
          pagination={shown.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          locale={{ emptyText: t('protocols.preview.none') }}
          columns={[
            { key: 'key', title: t('protocols.point.key'), render: (_, v) => <code>{v.key}</code> },
            { key: 'name', title: t('protocols.name'), render: (_, v) => v.name || MISSING },
            {
              key: 'value',
              title: t('protocols.preview.value'),
              align: 'right',
              render: (_, v) => (
                <span data-testid={`preview-value-${v.key}`}>
                  {shownValue(v.value)}
                  {v.unit && v.value !== null ? ` ${v.unit}` : ''}
                </span>
              ),
            },
            {
              key: 'raw',
              title: t('protocols.preview.raw'),
              render: (_, v) => <code>{v.raw || MISSING}</code>,
            },
          ]}
        />
      )}
    </Flex>
  );
}
