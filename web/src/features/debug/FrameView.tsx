import { Alert, Descriptions, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  EXCEPTIONS,
  FrameError,
  parseHex,
  parseRequest,
  parseResponse,
  parseFrame,
  signed16,
  type ParsedFrame,
} from './modbus';

type Direction = 'request' | 'response' | 'auto';

function decode(hex: string, direction: Direction): ParsedFrame | FrameError {
  try {
    const bytes = parseHex(hex);
    if (direction === 'request') return parseRequest(bytes);
    if (direction === 'response') return parseResponse(bytes);
    return parseFrame(bytes);
  } catch (e) {
    return e instanceof FrameError ? e : new FrameError('notHex');
  }
}

const hex4 = (v: number) => `0x${v.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * A Modbus RTU frame decoded: unit, function, CRC check, address/count, the register values
 * (hex, unsigned, signed) or the exception. `startAddress` numbers the registers of a read
 * response (which does not carry its own start address).
 */
export function FrameView({
  hex,
  direction = 'auto',
  startAddress,
  testId,
}: {
  hex: string;
  direction?: Direction;
  startAddress?: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (!hex.trim()) return null;
  const f = decode(hex, direction);
  if (f instanceof FrameError) {
    return (
      <Alert
        type="error"
        showIcon
        title={t(`debug.errors.${f.reason}`)}
        data-testid={testId && `${testId}-error`}
      />
    );
  }
  const kindLabel = t(`debug.frame.kind.${f.kind}`);
  const first = f.kind === 'response' && f.address === undefined ? startAddress : f.address;
  const rows = (f.values ?? []).map((value, i) => ({
    key: i,
    address: first === undefined ? null : first + i,
    value,
  }));
  return (
    <div data-testid={testId}>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, md: 3 }}
        bordered
        items={[
          { key: 'kind', label: t('debug.frame.type'), children: kindLabel },
          { key: 'slave', label: t('debug.frame.slave'), children: f.slave },
          {
            key: 'fn',
            label: t('debug.frame.function'),
            children: `${String(f.fn).padStart(2, '0')} ${t(`debug.fn.${f.fn}`, { defaultValue: '' })}`,
          },
          ...(f.address !== undefined
            ? [
                {
                  key: 'address',
                  label: t('debug.frame.address'),
                  children: `${f.address} (${hex4(f.address)})`,
                },
              ]
            : []),
          ...(f.count !== undefined
            ? [{ key: 'count', label: t('debug.frame.count'), children: f.count }]
            : []),
          {
            key: 'crc',
            label: t('debug.frame.crc'),
            children: f.crcOk ? (
              <Tag color="success" data-testid={testId && `${testId}-crc`}>
                {hex4(f.crc)} {t('debug.frame.crcOk')}
              </Tag>
            ) : (
              <Tag color="error" data-testid={testId && `${testId}-crc`}>
                {t('debug.frame.crcBad', { found: hex4(f.crc), expected: hex4(f.expectedCrc) })}
              </Tag>
            ),
          },
        ]}
      />
      {f.kind === 'exception' && (
        <Alert
          style={{ marginTop: 12 }}
          type="warning"
          showIcon
          data-testid={testId && `${testId}-exception`}
          title={t('debug.frame.exception', {
            code: f.exception,
            text: t(`debug.exception.${EXCEPTIONS[f.exception ?? 0] ?? 'unknown'}`),
          })}
        />
      )}
      {rows.length > 0 && (
        <Table
          style={{ marginTop: 12 }}
          size="small"
          pagination={false}
          dataSource={rows}
          data-testid={testId && `${testId}-registers`}
          columns={[
            {
              key: 'address',
              title: t('debug.frame.register'),
              render: (_, r) =>
                r.address === null ? `#${r.key}` : `${r.address} (${hex4(r.address)})`,
            },
            { key: 'hex', title: t('debug.frame.hex'), render: (_, r) => hex4(r.value) },
            {
              key: 'unsigned',
              title: t('debug.frame.unsigned'),
              align: 'right',
              render: (_, r) => (
                <Typography.Text data-testid="register-value">{r.value}</Typography.Text>
              ),
            },
            {
              key: 'signed',
              title: t('debug.frame.signed'),
              align: 'right',
              render: (_, r) => signed16(r.value),
            },
          ]}
        />
      )}
    </div>
  );
}
