import { Alert, Descriptions, Flex, Input, Segmented, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { asciiToHex, binaryToHex, hexToAscii, hexToBinary, parseHex, toHex } from '../modbus';
import { attempt } from './attempt';

type Base = 'hex' | 'binary' | 'ascii';

/** Hex, binary and ASCII views of the same bytes. */
export function ConvertTab() {
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
