import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { requiredRule } from '@/shared/validators';
import './texts';
import { ALARM_KINDS } from './webhooksApi';

export const DEVICE_NAME_MAX = 100;

/** Device name, alarm kinds and minimum severity: the same choices as a webhook's. */
export function PushChoiceFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="deviceName"
        label={t('push.deviceName')}
        extra={t('push.deviceNameHint')}
        rules={[requiredRule()]}
      >
        <Input maxLength={DEVICE_NAME_MAX} />
      </Form.Item>
      <Form.Item name="kinds" label={t('webhooks.kinds')} extra={t('webhooks.kindsHint')}>
        <Select
          mode="multiple"
          allowClear
          placeholder={t('webhooks.kindsAll')}
          options={ALARM_KINDS.map((k) => ({ value: k, label: t(`webhooks.kind.${k}`) }))}
        />
      </Form.Item>
      <Form.Item name="minSeverity" label={t('webhooks.minSeverity')}>
        <Select
          options={(['warning', 'alarm'] as const).map((s) => ({
            value: s,
            label: t(`webhooks.severity.${s}`),
          }))}
        />
      </Form.Item>
    </>
  );
}
