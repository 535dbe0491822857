import { ArrowLeftOutlined, SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Skeleton,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Limits } from '@/shared/api/limits.gen';
import { isApiError } from '@/shared/http';
import { useCan } from '@/shared/permissions';
import { Problem } from '@/shared/ui/Problem';
import { SubmitButton } from '@/shared/ui/guarded';
import { protocolKeys, protocolQuery, saveProtocol } from './api';
import { FAMILIES, parseConfig, toJson, type ProtocolConfig } from './config';
import { PointsTable } from './PointsTable';
import { PreviewPanel } from './PreviewPanel';

/** management/protocol/:code: one protocol config, viewed, edited and tried on a frame. */
export default function ProtocolEditorPage() {
  const { t } = useTranslation();
  const code = useParams().code ?? '';
  const stored = useQuery(protocolQuery(code));

  const back = (
    <Link to="/management/protocol" data-testid="protocol-back">
      <ArrowLeftOutlined /> {t('protocols.back')}
    </Link>
  );
  if (stored.isError)
    return (
      <Card>
        <Problem
          title={t('protocols.loadOneFailed', { code })}
          testId="protocol-error"
          extra={
            <Flex gap={8} justify="center">
              <Button onClick={() => void stored.refetch()}>{t('common.refresh')}</Button>
              <Button>{back}</Button>
            </Flex>
          }
        />
      </Card>
    );
  if (!stored.data)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  // a saved revision re-mounts the editor with the stored document
  return <Editor key={`${code}:${stored.data.version}`} initial={stored.data} back={back} />;
}

function Editor({ initial, back }: { initial: ProtocolConfig; back: React.ReactNode }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const mayEdit = useCan('sys.protocol.edit');
  const [config, setConfig] = useState<ProtocolConfig>(initial);
  const [tab, setTab] = useState('points');
  const [raw, setRaw] = useState('');
  const [rawError, setRawError] = useState<string | null>(null);
  const dirty = JSON.stringify(config) !== JSON.stringify(initial);

  /** The config being edited: from the raw text when that tab is open. */
  const current = (): ProtocolConfig | null => {
    if (tab !== 'raw') return config;
    const parsed = parseConfig(raw);
    if ('error' in parsed) {
      setRawError(parsed.error);
      return null;
    }
    setRawError(null);
    setConfig(parsed.config);
    return parsed.config;
  };

  const save = useMutation({
    mutationFn: saveProtocol,
    onSuccess: async (saved) => {
      message.success(t('protocols.saved', { version: saved.version }));
      await queryClient.invalidateQueries({ queryKey: protocolKeys.all });
    },
  });

  const header = <K extends keyof ProtocolConfig>(field: K, value: ProtocolConfig[K] | null) =>
    setConfig((c) => {
      const next = { ...c };
      if (value === null || value === '') delete next[field];
      else next[field] = value;
      return next;
    });

  const half = { xs: 24, md: 12, xl: 6 };

  return (
    <Card
      title={
        <Flex vertical>
          {back}
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="protocol-title">
            {config.code}
          </Typography.Title>
        </Flex>
      }
      extra={
        mayEdit && (
          <SubmitButton
            type="primary"
            icon={<SaveOutlined />}
            loading={save.isPending}
            disabled={!dirty && tab !== 'raw'}
            onClick={() => {
              const c = current();
              if (c) save.mutate(c);
            }}
            data-testid="protocol-save"
          >
            {t('common.save')}
          </SubmitButton>
        )
      }
    >
      <Flex vertical gap={16}>
        <Flex gap={8} wrap>
          <Tag data-testid="protocol-version">
            {t('protocols.versionN', { version: config.version })}
          </Tag>
          {dirty && <Tag color="orange">{t('protocols.unsaved')}</Tag>}
        </Flex>
        {save.isError && (
          <Alert
            type="error"
            showIcon
            closable
            title={t('protocols.saveFailed')}
            description={
              <span style={{ whiteSpace: 'pre-wrap' }}>
                {isApiError(save.error) ? save.error.message : String(save.error)}
              </span>
            }
            data-testid="protocol-problems"
          />
        )}
        <Tabs
          activeKey={tab}
          onChange={(next) => {
            if (tab === 'raw' && current() === null) return;
            if (next === 'raw') {
              setRaw(toJson(config));
              setRawError(null);
            }
            setTab(next);
          }}
          items={[
            {
              key: 'points',
              label: t('protocols.tab.points'),
              children: (
                <Flex vertical gap={16}>
                  <Form layout="vertical" disabled={!mayEdit}>
                    <Row gutter={16}>
                      <Col {...half}>
                        <Form.Item label={t('protocols.name')}>
                          <Input
                            value={config.name}
                            maxLength={Limits.ProtocolConfigBody.name.maxLength}
                            onChange={(e) => header('name', e.target.value)}
                            data-testid="protocol-name"
                          />
                        </Form.Item>
                      </Col>
                      <Col {...half}>
                        <Form.Item label={t('protocols.familyTitle')}>
                          <Select
                            value={config.family}
                            onChange={(v) => header('family', v)}
                            options={FAMILIES.map((f) => ({
                              value: f,
                              label: t(`protocols.family.${f}`),
                            }))}
                          />
                        </Form.Item>
                      </Col>
                      <Col {...half}>
                        <Form.Item
                          label={t('protocols.inverterType')}
                          extra={t('protocols.inverterTypeHint')}
                        >
                          <InputNumber
                            value={config.inverter_type ?? null}
                            min={0}
                            max={65535}
                            precision={0}
                            style={{ width: '100%' }}
                            onChange={(v) => header('inverter_type', v === null ? null : Number(v))}
                          />
                        </Form.Item>
                      </Col>
                      <Col {...half}>
                        <Form.Item label={t('protocols.unitId')}>
                          <InputNumber
                            value={config.unit_id ?? 1}
                            min={0}
                            max={255}
                            precision={0}
                            style={{ width: '100%' }}
                            onChange={(v) => header('unit_id', v === null ? null : Number(v))}
                          />
                        </Form.Item>
                      </Col>
                      <Col span={24}>
                        <Form.Item label={t('protocols.notes')}>
                          <Input.TextArea
                            value={config.notes ?? ''}
                            autoSize={{ minRows: 2, maxRows: 6 }}
                            onChange={(e) => header('notes', e.target.value)}
                          />
                        </Form.Item>
                      </Col>
                    </Row>
                  </Form>
                  <PointsTable
                    points={config.points}
                    readOnly={!mayEdit}
                    onChange={(points) => setConfig((c) => ({ ...c, points }))}
                  />
                </Flex>
              ),
            },
            {
              key: 'raw',
              label: t('protocols.tab.raw'),
              children: (
                <Flex vertical gap={8}>
                  <Typography.Text type="secondary">{t('protocols.rawHint')}</Typography.Text>
                  {rawError && (
                    <Alert
                      type="error"
                      showIcon
                      title={t('protocols.rawInvalid', { error: rawError })}
                      data-testid="protocol-raw-error"
                    />
                  )}
                  <Input.TextArea
                    value={raw}
                    readOnly={!mayEdit}
                    onChange={(e) => setRaw(e.target.value)}
                    autoSize={{ minRows: 16, maxRows: 40 }}
                    spellCheck={false}
                    aria-label={t('protocols.tab.raw')}
                    style={{ fontFamily: 'monospace', fontSize: 12 }}
                    data-keyfilter="off"
                    data-testid="protocol-raw"
                  />
                </Flex>
              ),
            },
            {
              key: 'preview',
              label: t('protocols.tab.preview'),
              children: <PreviewPanel config={config} />,
            },
          ]}
        />
      </Flex>
    </Card>
  );
}
