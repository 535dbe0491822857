import { CheckCircleFilled } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button, Flex, Form, Input, Typography, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { formRule } from '@/shared/validators';
import { checkGateway } from './api';
import { GATEWAY_FIELDS } from './fieldNames';
import { gatewayInput, gatewayKey, gatewaySn, showGatewayError } from './gateway';

/**
 * SN and registration key. With `optional`, both may stay empty (the wizard step can be
 * skipped); once one is filled the other is required. `withCheck` adds the "Check" button
 * (POST /gateway/import/one/check).
 */
export function GatewayFields({
  form,
  optional = false,
  withCheck = false,
}: {
  form: FormInstance;
  optional?: boolean;
  withCheck?: boolean;
}) {
  const { t } = useTranslation();
  const check = useMutation({
    mutationFn: ({ sn, key }: { sn: string; key: string }) => checkGateway(sn, key),
    onError: (e) => showGatewayError(form, e),
  });
  const requiredWhen = (other: string, message: string) => ({
    validator: (_: unknown, value: unknown) => {
      const mine = typeof value === 'string' ? value.trim() : '';
      const theirs = form.getFieldValue(other) as unknown;
      const needed = !optional || (typeof theirs === 'string' && theirs.trim() !== '');
      return needed && !mine ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  });
  const runCheck = async () => {
    check.reset();
    try {
      await form.validateFields(GATEWAY_FIELDS);
    } catch {
      return;
    }
    const input = gatewayInput(form.getFieldValue('gatewaySn'), form.getFieldValue('gatewayKey'));
    if (!input) {
      form.setFields([{ name: 'gatewaySn', errors: [t('plants.gateway.snRequired')] }]);
      return;
    }
    check.mutate(input);
  };
  return (
    <>
      <Form.Item
        name="gatewaySn"
        label={t('plants.gateway.sn')}
        dependencies={['gatewayKey']}
        rules={[requiredWhen('gatewayKey', t('plants.gateway.snRequired')), formRule(gatewaySn)]}
      >
        <Input
          maxLength={32}
          autoComplete="off"
          placeholder={t('plants.gateway.snPlaceholder')}
          onChange={() => check.reset()}
        />
      </Form.Item>
      <Form.Item
        name="gatewayKey"
        label={t('plants.gateway.key')}
        dependencies={['gatewaySn']}
        rules={[requiredWhen('gatewaySn', t('plants.gateway.keyRequired')), formRule(gatewayKey)]}
      >
        <Input
          maxLength={32}
          autoComplete="off"
          data-keyfilter="off"
          placeholder={t('plants.gateway.keyPlaceholder')}
          onChange={() => check.reset()}
        />
      </Form.Item>
      {withCheck && (
        <Flex align="center" gap={12}>
          <Button
            onClick={() => void runCheck()}
            loading={check.isPending}
            data-testid="gateway-check"
          >
            {t('plants.gateway.check')}
          </Button>
          {check.isSuccess && (
            <Typography.Text type="success" data-testid="gateway-check-ok">
              <CheckCircleFilled /> {t('plants.gateway.checkOk')}
            </Typography.Text>
          )}
        </Flex>
      )}
    </>
  );
}
