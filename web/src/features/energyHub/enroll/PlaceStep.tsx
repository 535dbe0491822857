import { useQuery } from '@tanstack/react-query';
import {
  Checkbox,
  Col,
  Flex,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Slider,
  Typography,
} from 'antd';
import { Limits } from '@/shared/api/limits.gen';
import { useTranslation } from 'react-i18next';
import { formRule, maxLength, requiredRule } from '@/shared/validators';
import { timezonesQuery } from '../api';
import { ADDRESS_FIELDS, REQUIRED_ADDRESS } from '../form';

/** The share of the plant's flexibility offered, in % (the server's range). */
const LEVEL = Limits.EnrollmentRequest.participationLevel;

const half = { xs: 24, sm: 12 };

function AddressFields({
  prefix,
  testId,
}: {
  prefix: 'serviceAddress' | 'mailingAddress';
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Row gutter={12} data-testid={testId}>
      {ADDRESS_FIELDS.map((part) => (
        <Col key={part} {...half}>
          <Form.Item
            name={[prefix, part]}
            label={t(`energyHub.address.${part}`)}
            rules={[
              ...(REQUIRED_ADDRESS.includes(part) ? [requiredRule()] : []),
              formRule((v) => maxLength(v, Limits.Address[part].maxLength)),
            ]}
          >
            <Input
              maxLength={Limits.Address[part].maxLength}
              data-keyfilter="off"
              data-testid={`${testId}-${part}`}
            />
          </Form.Item>
        </Col>
      ))}
    </Row>
  );
}

/** Step 4: where the plant is served and mailed, how much it takes part, its time zone. */
export function PlaceStep() {
  const { t } = useTranslation();
  const zones = useQuery(timezonesQuery);
  const form = Form.useFormInstance();
  const same = Form.useWatch('sameMailing', form) as boolean | undefined;
  return (
    <>
      <Typography.Title level={5}>{t('energyHub.serviceAddress')}</Typography.Title>
      <AddressFields prefix="serviceAddress" testId="hub-service-address" />
      <Form.Item name="sameMailing" valuePropName="checked">
        <Checkbox data-testid="hub-same-mailing">{t('energyHub.sameMailing')}</Checkbox>
      </Form.Item>
      {same === false && (
        <>
          <Typography.Title level={5}>{t('energyHub.mailingAddress')}</Typography.Title>
          <AddressFields prefix="mailingAddress" testId="hub-mailing-address" />
        </>
      )}
      <Form.Item
        label={t('energyHub.participation')}
        tooltip={t('energyHub.participationHelp')}
        required
      >
        <Flex gap={12} align="center">
          <Form.Item name="participationLevel" noStyle>
            <Slider min={LEVEL.minimum} max={LEVEL.maximum} style={{ flex: 1 }} />
          </Form.Item>
          <Form.Item
            name="participationLevel"
            noStyle
            rules={[
              requiredRule(),
              {
                type: 'number',
                min: LEVEL.minimum,
                max: LEVEL.maximum,
                message: t('validation.range', { min: LEVEL.minimum, max: LEVEL.maximum }),
              },
            ]}
          >
            <InputNumber
              min={LEVEL.minimum}
              max={LEVEL.maximum}
              precision={0}
              suffix="%"
              aria-label={t('energyHub.participation')}
              style={{ width: 96 }}
              data-testid="hub-participation"
            />
          </Form.Item>
        </Flex>
      </Form.Item>
      <Form.Item name="timeZone" label={t('energyHub.timeZone')} rules={[requiredRule()]}>
        <Select
          showSearch
          optionFilterProp="label"
          loading={zones.isPending}
          options={(zones.data ?? []).map((z) => ({ value: z.id, label: z.label }))}
          data-testid="hub-enroll-timezone"
        />
      </Form.Item>
    </>
  );
}
