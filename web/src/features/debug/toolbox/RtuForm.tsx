import { Alert, Form, Input, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FUNCTION_CODES, type FunctionCode } from '../modbus';
import type { RtuRequest } from './useRtuRequest';

/** The fields of a Modbus RTU request and the frame they make. */
export function RtuForm({ request: r }: { request: RtuRequest }) {
  const { t } = useTranslation();
  return (
    <>
      <Form layout="vertical">
        <Form.Item label={t('debug.frame.slave')}>
          <InputNumber<number>
            min={0}
            max={247}
            value={r.slave}
            onChange={(v) => r.setSlave(v ?? 0)}
            data-testid="rtu-slave"
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Form.Item label={t('debug.frame.function')}>
          <Select<FunctionCode>
            value={r.fn}
            onChange={r.setFn}
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
            value={r.address}
            onChange={(v) => r.setAddress(v ?? 0)}
            data-testid="rtu-address"
            style={{ width: '100%' }}
          />
        </Form.Item>
        {r.isRead ? (
          <Form.Item label={t('debug.frame.count')}>
            <InputNumber<number>
              min={1}
              max={125}
              value={r.count}
              onChange={(v) => r.setCount(v ?? 1)}
              data-testid="rtu-count"
              style={{ width: '100%' }}
            />
          </Form.Item>
        ) : (
          <Form.Item label={t('debug.frame.values')} extra={t('debug.frame.valuesHelp')}>
            <Input
              value={r.values}
              onChange={(e) => r.setValues(e.target.value)}
              data-testid="rtu-values"
            />
          </Form.Item>
        )}
      </Form>
      {r.built.frame ? (
        <Typography.Paragraph copyable code data-testid="rtu-frame">
          {r.built.frame}
        </Typography.Paragraph>
      ) : (
        <Alert type="error" showIcon title={t(`debug.errors.${r.built.error ?? 'values'}`)} />
      )}
    </>
  );
}
