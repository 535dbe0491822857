import { Alert, Descriptions, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buildAscii, crc16, lrc, parseHex, toHex } from '../modbus';
import { attempt, hex2 } from './attempt';

/** CRC-16/Modbus and LRC of any bytes. */
export function ChecksumTab() {
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
