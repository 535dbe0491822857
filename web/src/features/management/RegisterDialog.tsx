import { useMutation, useQuery } from '@tanstack/react-query';
import { App, AutoComplete, Col, Form, Input, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { formRule, requiredRule } from '@/shared/validators';
import { createGateway, protocolOptionsQuery, refusalField, type NewGateway } from './api';
import { COMM_TYPES, gatewayKey, gatewaySn, LIMITS, upTo } from './rules';

const FIELDS = ['sn', 'key', 'model', 'commType', 'protocol'] as const;

/** Registers one gateway: SN, registration key, and optionally model, link and protocol. */
export function RegisterDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<NewGateway>();
  // Administrators who may read the protocol configs pick one; others type its code.
  const protocols = useQuery(protocolOptionsQuery);

  const save = useMutation({
    mutationFn: createGateway,
    onSuccess: () => {
      message.success(t('sysGateways.register.done'));
      onDone();
      onClose();
    },
    onError: (e) => {
      const field = FIELDS.find((f) => f === refusalField(e));
      if (field)
        form.setFields([
          {
            name: field,
            errors: [
              t(field === 'sn' ? 'sysGateways.refusal.snTaken' : 'sysGateways.refusal.invalid'),
            ],
          },
        ]);
      else if (isApiError(e)) message.error(e.message);
    },
  });

  const half = { xs: 24, sm: 12 };
  return (
    <GuardedModal
      open
      width={620}
      title={t('sysGateways.register.title')}
      okText={t('sysGateways.register.ok')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'register-ok' }}
      destroyOnHidden
    >
      <Form<NewGateway>
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate(v)}
        data-testid="register-form"
      >
        <Row gutter={16}>
          <Col {...half}>
            <Form.Item
              name="sn"
              label={t('sysGateways.field.sn')}
              extra={t('sysGateways.rule.sn')}
              rules={[requiredRule(), formRule(gatewaySn)]}
            >
              <Input maxLength={LIMITS.sn} autoComplete="off" data-testid="register-sn" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="key"
              label={t('sysGateways.field.key')}
              extra={t('sysGateways.rule.key')}
              rules={[requiredRule(), formRule(gatewayKey)]}
            >
              <Input maxLength={LIMITS.key} autoComplete="off" data-testid="register-key" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="model"
              label={t('sysGateways.field.model')}
              rules={[formRule(upTo(LIMITS.model))]}
            >
              <Input maxLength={LIMITS.model} autoComplete="off" data-testid="register-model" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="commType"
              label={t('sysGateways.field.commType')}
              rules={[formRule(upTo(LIMITS.commType))]}
            >
              <AutoComplete
                options={COMM_TYPES.map((c) => ({ value: c, label: t(`sysGateways.comm.${c}`) }))}
                maxLength={LIMITS.commType}
                data-testid="register-comm"
              />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="protocol"
              label={t('sysGateways.field.protocol')}
              rules={[formRule(upTo(LIMITS.protocol))]}
            >
              {protocols.isSuccess ? (
                <Select
                  allowClear
                  showSearch
                  optionFilterProp="label"
                  placeholder={t('sysGateways.field.protocolPick')}
                  options={protocols.data.map((p) => ({
                    value: p.code,
                    label: p.name && p.name !== p.code ? `${p.code} (${p.name})` : p.code,
                  }))}
                  data-testid="register-protocol"
                />
              ) : (
                <Input
                  maxLength={LIMITS.protocol}
                  autoComplete="off"
                  placeholder={t('sysGateways.field.protocolType')}
                  data-testid="register-protocol"
                />
              )}
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </GuardedModal>
  );
}
