import { Alert, Descriptions, Flex, Input, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FrameView } from '../FrameView';
import { FrameError, parseAscii, toHex } from '../modbus';
import { hex2 } from './attempt';

/** Decodes a pasted RTU frame, or an ASCII frame (`:...`) with its LRC. */
export function ParseTab() {
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
