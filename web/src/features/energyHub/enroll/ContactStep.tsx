import { Col, Form, Input, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
import {
  email,
  energyHubAccount,
  formRule,
  lengthBetween,
  maxLength,
  requiredRule,
} from '@/shared/validators';
import { sourceAccountCheck } from '../form';

const half = { xs: 24, sm: 12 };
const LIMITS = Limits.EnrollmentRequest;

/** Step 3: the account numbers and who the utility talks to. */
export function ContactStep() {
  const { t } = useTranslation();
  return (
    <Row gutter={12}>
      <Col {...half}>
        <Form.Item
          name="sourceAccountNumber"
          label={t('energyHub.sourceAccount')}
          tooltip={t('energyHub.sourceAccountHelp')}
          rules={[requiredRule(), formRule(sourceAccountCheck)]}
        >
          <Input
            inputMode="numeric"
            maxLength={LIMITS.sourceAccountNumber.maxLength}
            data-testid="hub-enroll-source-account"
          />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item
          name="utilityAccountNumber"
          label={t('energyHub.utilityAccount')}
          tooltip={t('energyHub.utilityAccountHelp')}
          rules={[requiredRule(), formRule((v) => energyHubAccount(v))]}
        >
          <Input
            maxLength={LIMITS.utilityAccountNumber.maxLength}
            data-testid="hub-enroll-utility-account"
          />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item
          name="firstName"
          label={t('energyHub.firstName')}
          rules={[
            requiredRule(),
            formRule((v) =>
              lengthBetween(v, LIMITS.firstName.minLength, LIMITS.firstName.maxLength),
            ),
          ]}
        >
          <Input
            maxLength={LIMITS.firstName.maxLength}
            autoComplete="given-name"
            data-testid="hub-enroll-first-name"
          />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item
          name="lastName"
          label={t('energyHub.lastName')}
          rules={[
            requiredRule(),
            formRule((v) => lengthBetween(v, LIMITS.lastName.minLength, LIMITS.lastName.maxLength)),
          ]}
        >
          <Input
            maxLength={LIMITS.lastName.maxLength}
            autoComplete="family-name"
            data-testid="hub-enroll-last-name"
          />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item
          name="email"
          label={t('energyHub.email')}
          rules={[requiredRule(), formRule(email), formRule((v) => maxLength(v, 64))]}
        >
          <Input type="email" autoComplete="email" data-testid="hub-enroll-email" />
        </Form.Item>
      </Col>
    </Row>
  );
}
