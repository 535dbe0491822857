import { App, DatePicker, Form, Input } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rangePresets } from '@/shared/format/dateRanges';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { downloadDynamic } from './api';

interface Values {
  sn: string;
  range: [Dayjs, Dayjs];
  columns?: string;
}

/** Dynamic data download: a device's reports over at most 31 days, with chosen columns. */
export function DynamicDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);

  const submit = (v: Values) => {
    setBusy(true);
    downloadDynamic(v.sn, v.range, v.columns ?? '')
      .then(onClose)
      .catch((e: unknown) => message.error(isApiError(e) ? e.message : t('events.downloadFailed')))
      .finally(() => setBusy(false));
  };

  return (
    <GuardedModal
      open
      title={t('events.dynamic.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('events.download')}
      confirmLoading={busy}
      data-testid="dynamic-dialog"
    >
      <Form<Values> form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="sn"
          label={t('events.dynamic.sn')}
          rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
        >
          <Input data-testid="dynamic-sn" maxLength={32} />
        </Form.Item>
        <Form.Item
          name="range"
          label={t('events.dynamic.range')}
          rules={[
            { required: true, message: t('validation.required') },
            {
              validator: (_, value: [Dayjs, Dayjs] | undefined) =>
                !value || value[1].diff(value[0], 'day') < 31
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('events.dynamic.tooLong'))),
            },
          ]}
        >
          <DatePicker.RangePicker presets={rangePresets(t)} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="columns"
          label={t('events.dynamic.columns')}
          extra={t('events.dynamic.columnsHint')}
        >
          <Input placeholder="pv1_power, battery_soc" data-testid="dynamic-columns" />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
