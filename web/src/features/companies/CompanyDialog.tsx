import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Col, Divider, Form, Input, Row, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { account as accountRule, formRule, newPassword, requiredRule } from '@/shared/validators';
import {
  addCompany,
  companyKeys,
  companyRefusal,
  editCompany,
  newCompanyBody,
  type CompanyInfo,
  type NewCompany,
} from './api';
import { adminAccountCheckRule, nameCheckRule } from './checks';
import { companyName, LIMITS, optionalEmail, upTo } from './rules';

type Values = NewCompany & { existing: boolean };

const EMPTY: Values = {
  name: '',
  contactName: '',
  email: '',
  phone: '',
  address: '',
  remark: '',
  adminAccount: '',
  adminPassword: '',
  adminNickname: '',
  existing: false,
};

/** Create a company with its administrator account (`company` undefined), or edit one. */
export function CompanyDialog({
  company,
  onClose,
}: {
  company?: CompanyInfo;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const existing = Form.useWatch('existing', form) ?? false;
  const creating = company === undefined;

  const save = useMutation({
    mutationFn: (v: Values): Promise<unknown> => {
      const full = { ...EMPTY, ...v };
      const body = newCompanyBody(full, full.existing);
      if (creating) return addCompany(body);
      const { name, contactName, email, phone, address, remark } = body;
      return editCompany(company.id, { name, contactName, email, phone, address, remark });
    },
    onSuccess: async () => {
      message.success(t(creating ? 'companies.createdDone' : 'common.saved'));
      await queryClient.invalidateQueries({ queryKey: companyKeys.all });
      onClose();
    },
    onError: (e, v) => {
      const refusal = companyRefusal(e, v.existing);
      if (refusal) form.setFields([{ name: refusal.field, errors: [t(refusal.key)] }]);
      else if (isApiError(e)) message.error(e.message);
    },
  });

  const half = { xs: 24, sm: 12 };

  return (
    <GuardedModal
      open
      width={680}
      title={creating ? t('companies.createTitle') : t('companies.editTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'company-save' }}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={company ? { ...EMPTY, ...company } : EMPTY}
        onFinish={(v) => save.mutate(v)}
        data-testid="company-form"
      >
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item
              name="name"
              label={t('companies.name')}
              validateTrigger={['onChange', 'onBlur']}
              hasFeedback
              rules={[requiredRule(), formRule(companyName), nameCheckRule(t, company?.id)]}
            >
              <Input maxLength={LIMITS.name} autoComplete="off" data-testid="company-name" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="contactName"
              label={t('companies.contactName')}
              rules={[formRule(upTo(LIMITS.contactName))]}
            >
              <Input maxLength={LIMITS.contactName} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="phone"
              label={t('companies.phone')}
              rules={[formRule(upTo(LIMITS.phone))]}
            >
              <Input maxLength={LIMITS.phone} autoComplete="off" data-keyfilter="off" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="email" label={t('companies.email')} rules={[formRule(optionalEmail)]}>
              <Input autoComplete="off" data-keyfilter="off" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="address"
              label={t('companies.address')}
              rules={[formRule(upTo(LIMITS.address))]}
            >
              <Input maxLength={LIMITS.address} autoComplete="off" data-keyfilter="off" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="remark"
              label={t('companies.remark')}
              rules={[formRule(upTo(LIMITS.remark))]}
            >
              <Input.TextArea rows={2} maxLength={LIMITS.remark} showCount />
            </Form.Item>
          </Col>
        </Row>
        {creating && (
          <>
            <Divider titlePlacement="start" style={{ marginTop: 0 }}>
              {t('companies.admin')}
            </Divider>
            <Form.Item
              name="existing"
              valuePropName="checked"
              label={t('companies.existingAccount')}
              extra={
                <Typography.Text type="secondary">
                  {existing ? t('companies.existingHint') : t('companies.newHint')}
                </Typography.Text>
              }
            >
              <Switch
                data-testid="company-existing"
                onChange={() => {
                  // the account's check depends on the choice
                  if (form.getFieldValue('adminAccount'))
                    void form.validateFields(['adminAccount']).catch(() => undefined);
                }}
              />
            </Form.Item>
            <Row gutter={16}>
              <Col {...(existing ? { span: 24 } : half)}>
                <Form.Item
                  name="adminAccount"
                  label={t('companies.adminAccount')}
                  validateTrigger={['onChange', 'onBlur']}
                  hasFeedback
                  rules={[
                    requiredRule(),
                    formRule(accountRule),
                    adminAccountCheckRule(t, () => Boolean(form.getFieldValue('existing'))),
                  ]}
                >
                  <Input
                    autoComplete="off"
                    data-keyfilter="off"
                    placeholder={t('login.accountPlaceholder')}
                    data-testid="company-admin-account"
                  />
                </Form.Item>
              </Col>
              {!existing && (
                <>
                  <Col {...half}>
                    <Form.Item
                      name="adminNickname"
                      label={t('companies.adminNickname')}
                      rules={[formRule(upTo(LIMITS.nickname))]}
                    >
                      <Input
                        maxLength={LIMITS.nickname}
                        autoComplete="off"
                        data-testid="company-admin-nickname"
                      />
                    </Form.Item>
                  </Col>
                  <Col {...half}>
                    <Form.Item
                      name="adminPassword"
                      label={t('companies.adminPassword')}
                      rules={[requiredRule(), formRule(newPassword)]}
                    >
                      <Input.Password
                        autoComplete="new-password"
                        maxLength={LIMITS.password}
                        data-testid="company-admin-password"
                      />
                    </Form.Item>
                  </Col>
                </>
              )}
            </Row>
          </>
        )}
      </Form>
    </GuardedModal>
  );
}
