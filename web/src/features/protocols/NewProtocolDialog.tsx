import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Select, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Limits } from '@/shared/api/limits.gen';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { requiredRule } from '@/shared/validators';
import { codeTaken, protocolKeys, protocolQuery, saveProtocol, type LoggerFunction } from './api';
import { CODE_PATTERN, copyConfig } from './config';

interface Values {
  from: string;
  code: string;
  name: string;
}

/**
 * A new config as a copy of an existing one under a new code (checked on blur: 5000 when a
 * config has it); saved at once, then opened in the editor.
 */
export function NewProtocolDialog({
  configs,
  onClose,
}: {
  configs: readonly LoggerFunction[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();

  const create = useMutation({
    mutationFn: async (v: Values) => {
      const source = await queryClient.fetchQuery(protocolQuery(v.from));
      return saveProtocol(copyConfig(source, v.code, v.name));
    },
    onSuccess: async (saved) => {
      message.success(t('protocols.created'));
      await queryClient.invalidateQueries({ queryKey: protocolKeys.list });
      onClose();
      void navigate(`/management/protocol/${encodeURIComponent(saved.code)}`);
    },
    onError: (e) => {
      if (isApiError(e)) message.error(e.message);
    },
  });

  const codeRules: FormRule[] = [
    requiredRule(),
    { pattern: CODE_PATTERN, message: t('protocols.codeRule') },
    {
      validateTrigger: 'onBlur',
      validator: async (_r, value: unknown) => {
        const code = typeof value === 'string' ? value.trim() : '';
        if (!CODE_PATTERN.test(code)) return;
        if ((await codeTaken(code)) === true) throw new Error(t('protocols.codeTaken'));
      },
    },
  ];

  return (
    <GuardedModal
      open
      title={t('protocols.newTitle')}
      okText={t('protocols.create')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={create.isPending}
      okButtonProps={{ 'data-testid': 'protocol-new-save' }}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ from: configs[0]?.code, code: '', name: '' }}
        onFinish={(v) => create.mutate(v)}
      >
        <Form.Item name="from" label={t('protocols.copyOf')} rules={[requiredRule()]}>
          <Select
            showSearch
            options={configs.map((c) => ({ value: c.code, label: `${c.code} — ${c.name}` }))}
            data-testid="protocol-new-from"
          />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('protocols.code')}
          extra={t('protocols.codeHint')}
          validateTrigger={['onChange', 'onBlur']}
          hasFeedback
          rules={codeRules}
        >
          <Input
            maxLength={Limits.ProtocolConfigBody.code.maxLength}
            autoComplete="off"
            data-keyfilter="off"
            data-testid="protocol-new-code"
          />
        </Form.Item>
        <Form.Item name="name" label={t('protocols.name')} rules={[requiredRule()]}>
          <Input
            maxLength={Limits.ProtocolConfigBody.name.maxLength}
            autoComplete="off"
            data-testid="protocol-new-name"
          />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
