import { SendOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Divider,
  Flex,
  Form,
  Input,
  InputNumber,
  Row,
  Segmented,
  Select,
  Space,
  Spin,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { MISSING } from '@/shared/format/number';
import { isApiError } from '@/shared/http';
import { useCan } from '@/shared/permissions';
import { isOpen } from '@/shared/commands/api';
import { outcomeColor } from '@/shared/ui/status';
import { debugReplyQuery, sendFrame, type DebugEntry, type TargetKind } from './api';
import { FrameView } from './FrameView';
import {
  FUNCTION_CODES,
  FrameError,
  asciiToHex,
  binaryToHex,
  buildAscii,
  buildRequest,
  crc16,
  hexToAscii,
  hexToBinary,
  lrc,
  parseAscii,
  parseHex,
  toHex,
  type FunctionCode,
} from './modbus';

const hex2 = (v: number) => v.toString(16).toUpperCase().padStart(2, '0');

/** Runs a conversion; a refusal becomes its translated reason. */
function attempt(run: () => string, t: (k: string) => string): { value: string; error?: string } {
  try {
    return { value: run() };
  } catch (e) {
    return { value: '', error: t(`debug.errors.${e instanceof FrameError ? e.reason : 'notHex'}`) };
  }
}

/** The Modbus RTU tab: build a request, send it to a device, see the reply decoded. */
function RtuTab() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const mayDebug = useCan('inverter.debug');
  const [slave, setSlave] = useState(1);
  const [fn, setFn] = useState<FunctionCode>(3);
  const [address, setAddress] = useState(0);
  const [count, setCount] = useState(1);
  const [values, setValues] = useState('0');
  const [kind, setKind] = useState<TargetKind>(
    params.get('kind') === 'gateway' ? 'gateway' : 'inverter',
  );
  const [sn, setSn] = useState(params.get('sn') ?? '');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const [sent, setSent] = useState<DebugEntry | null>(null);

  const built = useMemo(() => {
    try {
      const list = values
        .split(/[\s,]+/)
        .filter((v) => v !== '')
        .map((v) => (/^0x/i.test(v) ? parseInt(v, 16) : Number(v)));
      return { frame: toHex(buildRequest({ slave, fn, address, count, values: list })) };
    } catch (e) {
      return { error: e instanceof FrameError ? e.reason : 'values' };
    }
  }, [slave, fn, address, count, values]);

  const reply = useQuery(debugReplyQuery(sent?.commandId ?? null));
  const entry = reply.data ?? sent;

  const send = () => {
    if (!built.frame || !sn.trim()) return;
    setSending(true);
    setSendError(null);
    setSent(null);
    sendFrame(kind, sn, built.frame)
      .then(setSent)
      .catch((e: unknown) => setSendError(isApiError(e) ? e.message : t('debug.send.failed')))
      .finally(() => setSending(false));
  };

  const isRead = fn === 3 || fn === 4;
  return (
    <Row gutter={[24, 24]}>
      <Col xs={24} lg={10}>
        <Form layout="vertical">
          <Form.Item label={t('debug.frame.slave')}>
            <InputNumber<number>
              min={0}
              max={247}
              value={slave}
              onChange={(v) => setSlave(v ?? 0)}
              data-testid="rtu-slave"
              style={{ width: '100%' }}
            />
          </Form.Item>
          <Form.Item label={t('debug.frame.function')}>
            <Select<FunctionCode>
              value={fn}
              onChange={setFn}
              data-testid="rtu-function"
              options={FUNCTION_CODES.map((c) => ({
                value: c,
                label: `${String(c).padStart(2, '0')} ${t(`debug.fn.${c}`)}`,
              }))}
            />
          </Form.Item>
          <Form.Item label={t('debug.frame.address')}>
            <InputNumber<number>
              min={0}
              max={65535}
              value={address}
              onChange={(v) => setAddress(v ?? 0)}
              data-testid="rtu-address"
              style={{ width: '100%' }}
            />
          </Form.Item>
          {isRead ? (
            <Form.Item label={t('debug.frame.count')}>
              <InputNumber<number>
                min={1}
                max={125}
                value={count}
                onChange={(v) => setCount(v ?? 1)}
                data-testid="rtu-count"
                style={{ width: '100%' }}
              />
            </Form.Item>
          ) : (
            <Form.Item label={t('debug.frame.values')} extra={t('debug.frame.valuesHelp')}>
              <Input
                value={values}
                onChange={(e) => setValues(e.target.value)}
                data-testid="rtu-values"
              />
            </Form.Item>
          )}
        </Form>
        {built.frame ? (
          <Typography.Paragraph copyable code data-testid="rtu-frame">
            {built.frame}
          </Typography.Paragraph>
        ) : (
          <Alert type="error" showIcon title={t(`debug.errors.${built.error ?? 'values'}`)} />
        )}
      </Col>
      <Col xs={24} lg={14}>
        <Typography.Title level={5}>{t('debug.send.title')}</Typography.Title>
        {mayDebug ? (
          <Space.Compact style={{ width: '100%' }}>
            <Segmented<TargetKind>
              value={kind}
              onChange={setKind}
              options={[
                { value: 'inverter', label: t('debug.send.inverter') },
                { value: 'gateway', label: t('debug.send.gateway') },
              ]}
            />
            <Input
              placeholder={t('debug.send.sn')}
              aria-label={t('debug.send.sn')}
              value={sn}
              onChange={(e) => setSn(e.target.value)}
              onPressEnter={send}
              data-testid="debug-sn"
            />
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={sending}
              disabled={!built.frame || !sn.trim()}
              onClick={send}
              data-testid="debug-send"
            >
              {t('debug.send.button')}
            </Button>
          </Space.Compact>
        ) : (
          <Alert type="info" showIcon title={t('debug.send.noPermission')} />
        )}
        {sendError && (
          <Alert
            style={{ marginTop: 12 }}
            type="error"
            showIcon
            title={sendError}
            data-testid="debug-send-error"
          />
        )}
        {entry && (
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
                  startAddress={isRead ? address : undefined}
                  testId="reply-view"
                />
              </>
            )}
          </div>
        )}
      </Col>
    </Row>
  );
}

/** CRC-16/Modbus and LRC of any bytes. */
function ChecksumTab() {
  const { t } = useTranslation();
  const [input, setInput] = useState('01 03 00 00 00 0A');
  const result = attempt(() => {
    const bytes = parseHex(input);
    const crc = crc16(bytes);
    return JSON.stringify({ crc, lrc: lrc(bytes), bytes });
  }, t);
  const parsed = result.value
    ? (JSON.parse(result.value) as { crc: number; lrc: number; bytes: number[] })
    : null;
  return (
    <Flex vertical gap={16}>
      <Input.TextArea
        rows={3}
        value={input}
        onChange={(e) => setInput(e.target.value)}
        aria-label={t('debug.checksum.input')}
        placeholder={t('debug.checksum.input')}
        data-testid="checksum-input"
      />
      {result.error && <Alert type="error" showIcon title={result.error} />}
      {parsed && (
        <Descriptions
          bordered
          size="small"
          column={1}
          items={[
            {
              key: 'crc',
              label: t('debug.checksum.crc'),
              children: (
                <span data-testid="checksum-crc">
                  0x{parsed.crc.toString(16).toUpperCase().padStart(4, '0')} (
                  {t('debug.checksum.wire')} {hex2(parsed.crc & 0xff)} {hex2(parsed.crc >> 8)})
                </span>
              ),
            },
            {
              key: 'lrc',
              label: t('debug.checksum.lrc'),
              children: <span data-testid="checksum-lrc">0x{hex2(parsed.lrc)}</span>,
            },
            {
              key: 'rtu',
              label: t('debug.checksum.rtuFrame'),
              children: (
                <Typography.Text code copyable>
                  {toHex([...parsed.bytes, parsed.crc & 0xff, parsed.crc >> 8])}
                </Typography.Text>
              ),
            },
            {
              key: 'ascii',
              label: t('debug.checksum.asciiFrame'),
              children: (
                <Typography.Text code copyable>
                  {buildAscii(parsed.bytes).trim()}
                </Typography.Text>
              ),
            },
          ]}
        />
      )}
    </Flex>
  );
}

type Base = 'hex' | 'binary' | 'ascii';

/** Hex, binary and ASCII views of the same bytes. */
function ConvertTab() {
  const { t } = useTranslation();
  const [base, setBase] = useState<Base>('hex');
  const [input, setInput] = useState('48 65 6C 6C 6F');
  const hex = attempt(() => {
    if (base === 'binary') return binaryToHex(input);
    if (base === 'ascii') return asciiToHex(input);
    return toHex(parseHex(input));
  }, t);
  const out = (run: (h: string) => string) => (hex.error ? MISSING : run(hex.value));
  return (
    <Flex vertical gap={16}>
      <Segmented<Base>
        value={base}
        onChange={setBase}
        options={(['hex', 'binary', 'ascii'] as const).map((b) => ({
          value: b,
          label: t(`debug.convert.${b}`),
        }))}
        data-testid="convert-base"
      />
      <Input.TextArea
        rows={3}
        value={input}
        onChange={(e) => setInput(e.target.value)}
        aria-label={t('debug.convert.input')}
        data-testid="convert-input"
      />
      {hex.error && <Alert type="error" showIcon title={hex.error} />}
      <Descriptions
        bordered
        size="small"
        column={1}
        items={[
          {
            key: 'hex',
            label: t('debug.convert.hex'),
            children: (
              <Typography.Text code copyable data-testid="convert-hex">
                {out((h) => h)}
              </Typography.Text>
            ),
          },
          {
            key: 'bin',
            label: t('debug.convert.binary'),
            children: (
              <Typography.Text code copyable>
                {out(hexToBinary)}
              </Typography.Text>
            ),
          },
          {
            key: 'ascii',
            label: t('debug.convert.ascii'),
            children: (
              <Typography.Text code copyable data-testid="convert-ascii">
                {out(hexToAscii)}
              </Typography.Text>
            ),
          },
          {
            key: 'dec',
            label: t('debug.convert.decimal'),
            children: out((h) => parseHex(h).join(' ')),
          },
        ]}
      />
    </Flex>
  );
}

/** Decodes a pasted RTU frame, or an ASCII frame (`:...`) with its LRC. */
function ParseTab() {
  const { t } = useTranslation();
  const [input, setInput] = useState('11 03 06 AE 41 56 52 43 40 49 AD');
  const ascii = input.trim().startsWith(':');
  const asciiResult = ascii
    ? (() => {
        try {
          return parseAscii(input);
        } catch (e) {
          return e instanceof FrameError ? e : new FrameError('notHex');
        }
      })()
    : null;
  return (
    <Flex vertical gap={16}>
      <Input.TextArea
        rows={3}
        value={input}
        onChange={(e) => setInput(e.target.value)}
        aria-label={t('debug.parse.input')}
        placeholder={t('debug.parse.placeholder')}
        data-testid="parse-input"
      />
      {asciiResult instanceof FrameError && (
        <Alert type="error" showIcon title={t(`debug.errors.${asciiResult.reason}`)} />
      )}
      {asciiResult && !(asciiResult instanceof FrameError) && (
        <Descriptions
          bordered
          size="small"
          column={1}
          items={[
            {
              key: 'body',
              label: t('debug.parse.body'),
              children: <Typography.Text code>{toHex(asciiResult.body)}</Typography.Text>,
            },
            {
              key: 'lrc',
              label: t('debug.checksum.lrc'),
              children: (
                <Tag color={asciiResult.lrcOk ? 'success' : 'error'} data-testid="parse-lrc">
                  {asciiResult.lrcOk
                    ? `0x${hex2(asciiResult.lrc)} ${t('debug.frame.crcOk')}`
                    : t('debug.frame.crcBad', {
                        found: `0x${hex2(asciiResult.lrc)}`,
                        expected: `0x${hex2(asciiResult.expectedLrc)}`,
                      })}
                </Tag>
              ),
            },
          ]}
        />
      )}
      {!ascii && <FrameView hex={input} testId="parse-view" />}
    </Flex>
  );
}

/** The remote debug toolbox (SPEC: CRC, Modbus RTU, ASCII, binary) with sending to devices. */
export default function DebugToolboxPage() {
  const { t } = useTranslation();
  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="debug-title">
          {t('debug.title')}
        </Typography.Title>
      }
    >
      <Tabs
        items={[
          { key: 'rtu', label: t('debug.tabs.rtu'), children: <RtuTab /> },
          { key: 'checksum', label: t('debug.tabs.checksum'), children: <ChecksumTab /> },
          { key: 'convert', label: t('debug.tabs.convert'), children: <ConvertTab /> },
          { key: 'parse', label: t('debug.tabs.parse'), children: <ParseTab /> },
        ]}
      />
    </Card>
  );
}
