import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorCode, isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { userQuery } from '@/shared/user';
import { email, formRule, requiredRule } from '@/shared/validators';
import {
  companyEditBody,
  companyKeys,
  editCompany,
  type CompanyEdit,
  type CompanyInfo,
} from './api';
import { COMPANY_LIMITS, companyName, companyPhone, upTo } from './rules';

/** Edits the company's details (company.edit). A taken name shows on the name field (203). */
export default function CompanyEditDialog({
  info,
  onClose,
}: {
  info: CompanyInfo;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CompanyEdit>();
  const save = useMutation({
    mutationFn: (values: CompanyEdit) => editCompany(info.id, companyEditBody(values)),
    onSuccess: async () => {
      message.success(t('common.saved'));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: companyKeys.all }),
        queryClient.invalidateQueries({ queryKey: userQuery.queryKey }),
      ]);
      onClose();
    },
    onError: (e) => {
      if (isApiError(e, ErrorCode.CompanyNameTaken)) {
        form.setFields([{ name: 'name', errors: [e.message] }]);
      }
    },
  });

  return (
    <GuardedModal
      open
      title={t('company.info.editTitle')}
      onCancel={onClose}
      okText={t('common.save')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'company-save' }}
      onOk={() => form.submit()}
      destroyOnHidden
      width={560}
    >
      <Form<CompanyEdit>
        form={form}
        layout="vertical"
        initialValues={{
          name: info.name,
          contactName: info.contactName,
          email: info.email,
          phone: info.phone,
          address: info.address,
          remark: info.remark,
        }}
        onFinish={(values) => save.mutate(values)}
      >
        <Form.Item
          name="name"
          label={t('company.field.name')}
          rules={[requiredRule(), formRule(companyName)]}
        >
          <Input maxLength={COMPANY_LIMITS.name} showCount />
        </Form.Item>
        <Form.Item
          name="contactName"
          label={t('company.field.contactName')}
          rules={[formRule(upTo(COMPANY_LIMITS.contactName))]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="email" label={t('company.field.email')} rules={[formRule(email)]}>
          <Input data-keyfilter="off" inputMode="email" />
        </Form.Item>
        <Form.Item name="phone" label={t('company.field.phone')} rules={[formRule(companyPhone)]}>
          <Input data-keyfilter="off" inputMode="tel" />
        </Form.Item>
        <Form.Item
          name="address"
          label={t('company.field.address')}
          rules={[formRule(upTo(COMPANY_LIMITS.address))]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="remark"
          label={t('company.field.remark')}
          rules={[formRule(upTo(COMPANY_LIMITS.remark))]}
        >
          <Input.TextArea rows={3} maxLength={COMPANY_LIMITS.remark} showCount />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
