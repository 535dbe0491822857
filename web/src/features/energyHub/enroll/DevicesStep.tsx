import { DeleteOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Form,
  Input,
  InputNumber,
  Row,
  Skeleton,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
import { formRule, maxLength, requiredRule } from '@/shared/validators';
import { installDateOk, MAX_DEVICES } from '../form';

/** The server's limits of an enrollment's device. */
const DEVICE = Limits.Device;
type Capacity = 'chargeCapacity' | 'dischargeCapacity' | 'storageCapacity';

const half = { xs: 24, sm: 12 };
const third = { xs: 24, sm: 8 };

/** Step 2: the plant's battery inverters that take part, as the utility needs to know them. */
export function DevicesStep({ loading }: { loading: boolean }) {
  const { t } = useTranslation();
  if (loading) return <Skeleton active />;
  const capacity = (name: number, field: Capacity, label: string) => {
    const max = DEVICE[field].maximum;
    return (
      <Form.Item
        name={[name, field]}
        label={label}
        rules={[
          requiredRule(),
          { type: 'number', min: 0, max, message: t('validation.range', { min: 0, max }) },
        ]}
      >
        <InputNumber min={0} max={max} step={0.1} style={{ width: '100%' }} />
      </Form.Item>
    );
  };
  return (
    <Form.List
      name="devices"
      rules={[
        {
          validator: (_, value: unknown[] | undefined) =>
            value && value.length > 0
              ? value.length <= MAX_DEVICES
                ? Promise.resolve()
                : Promise.reject(new Error(t('energyHub.maxDevices', { max: MAX_DEVICES })))
              : Promise.reject(new Error(t('energyHub.noBatteryInverter'))),
        },
      ]}
    >
      {(fields, { remove }, { errors }) => (
        <>
          {fields.length === 0 && <Empty description={t('energyHub.noBatteryInverter')} />}
          {fields.map((field) => (
            <Card
              key={field.key}
              size="small"
              style={{ marginBottom: 12 }}
              data-testid="hub-enroll-device"
              title={
                <Form.Item noStyle shouldUpdate>
                  {({ getFieldValue }) =>
                    String(getFieldValue(['devices', field.name, 'sn']) ?? '')
                  }
                </Form.Item>
              }
              extra={
                fields.length > 1 && (
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('energyHub.remove')}
                    onClick={() => remove(field.name)}
                  />
                )
              }
            >
              <Row gutter={12}>
                <Col {...half}>
                  <Form.Item
                    name={[field.name, 'manufacturer']}
                    label={t('energyHub.manufacturer')}
                    rules={[
                      requiredRule(),
                      formRule((v) => maxLength(v, DEVICE.manufacturer.maxLength)),
                    ]}
                  >
                    <Input data-keyfilter="off" />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item
                    name={[field.name, 'model']}
                    label={t('energyHub.model')}
                    rules={[requiredRule(), formRule((v) => maxLength(v, DEVICE.model.maxLength))]}
                  >
                    <Input data-keyfilter="off" />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item
                    name={[field.name, 'installDate']}
                    label={t('energyHub.installDate')}
                    rules={[
                      requiredRule(),
                      {
                        validator: (_, v: Dayjs | null) =>
                          installDateOk(v)
                            ? Promise.resolve()
                            : Promise.reject(new Error(t('energyHub.futureDate'))),
                      },
                    ]}
                  >
                    <DatePicker style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col {...third}>
                  {capacity(field.name, 'chargeCapacity', t('energyHub.chargeKw'))}
                </Col>
                <Col {...third}>
                  {capacity(field.name, 'dischargeCapacity', t('energyHub.dischargeKw'))}
                </Col>
                <Col {...third}>
                  {capacity(field.name, 'storageCapacity', t('energyHub.storageKwh'))}
                </Col>
              </Row>
            </Card>
          ))}
          <Form.ErrorList errors={errors} />
        </>
      )}
    </Form.List>
  );
}
