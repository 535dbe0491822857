import { UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Input, Select, Upload } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
import { isApiError } from '@/shared/http';
import {
  ACCEPT,
  fileProblem,
  LANGUAGES,
  manualKeys,
  productOptionsQuery,
  saveManual,
  sizeText,
  type Manual,
  type ManualForm,
  type ManualLanguage,
} from './api';
import { GuardedModal } from '@/shared/ui/guarded';

/** The server's limits of a manual's fields. */
const FORM = Limits.ManualForm;

interface Values {
  productId?: number;
  title?: string;
  language?: ManualLanguage;
  version?: string;
  issued?: Dayjs | null;
  file?: File;
}

/** Upload (no `manual`) or edit a manual: model, title, language, version, date and file. */
export function ManualDialog({ manual, onClose }: { manual?: Manual; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const products = useQuery(productOptionsQuery());
  const file = Form.useWatch('file', form);
  const save = useMutation({
    mutationFn: (v: ManualForm) => saveManual(manual?.id, v),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: manualKeys.all });
      void message.success(t('common.saved'));
      onClose();
    },
    onError: (e) => {
      if (isApiError(e)) void message.error(e.message);
    },
  });
  const submit = (v: Values) =>
    save.mutate({
      productId: v.productId,
      title: v.title,
      language: v.language,
      version: v.version,
      issued: v.issued ? v.issued.format('YYYY-MM-DD') : '',
      file: v.file,
    });
  return (
    <GuardedModal
      open
      title={manual ? t('manuals.dialog.edit') : t('manuals.dialog.add')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        data-testid="manual-form"
        initialValues={{
          productId: manual?.productId,
          title: manual?.title,
          language: (manual?.language as ManualLanguage | undefined) ?? 'en',
          version: manual?.version,
          issued: manual?.issued ? dayjs(manual.issued) : null,
        }}
      >
        <Form.Item
          name="productId"
          label={t('manuals.field.product')}
          rules={[{ required: true, message: t('manuals.rule.product') }]}
        >
          <Select
            showSearch
            optionFilterProp="label"
            loading={products.isPending}
            options={(products.data ?? []).map((p) => ({
              value: p.id,
              label: `${p.name} (${p.partNumber})`,
            }))}
          />
        </Form.Item>
        <Form.Item
          name="title"
          label={t('manuals.field.title')}
          rules={[
            { required: true, whitespace: true, message: t('manuals.rule.title') },
            { max: FORM.title.maxLength, message: t('manuals.rule.titleLong') },
          ]}
        >
          <Input maxLength={FORM.title.maxLength} />
        </Form.Item>
        <Form.Item name="language" label={t('manuals.field.language')}>
          <Select
            options={LANGUAGES.map((l) => ({ value: l, label: t(`manuals.language.${l}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="version"
          label={t('manuals.field.version')}
          rules={[{ max: FORM.version.maxLength }]}
        >
          <Input maxLength={FORM.version.maxLength} />
        </Form.Item>
        <Form.Item name="issued" label={t('manuals.field.issued')}>
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="file"
          label={t('manuals.field.file')}
          rules={[
            { required: !manual, message: t('manuals.rule.file') },
            {
              validator: async (_, f?: File) => {
                const problem = f ? fileProblem(f) : null;
                if (problem) throw new Error(t(`manuals.rule.${problem}`));
              },
            },
          ]}
          valuePropName="file"
          getValueFromEvent={(f: File) => f}
        >
          <FileChooser current={manual?.fileName} chosen={file} />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}

function FileChooser({
  onChange,
  current,
  chosen,
}: {
  onChange?: (f: File) => void;
  current?: string;
  chosen?: File;
}) {
  const { t } = useTranslation();
  return (
    <div data-testid="manual-file">
      <Upload
        accept={ACCEPT}
        maxCount={1}
        showUploadList={false}
        beforeUpload={(f) => {
          onChange?.(f);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>
          {chosen || current ? t('manuals.replaceFile') : t('manuals.chooseFile')}
        </Button>
      </Upload>
      <div style={{ marginTop: 4, wordBreak: 'break-all' }}>
        {chosen ? `${chosen.name} (${sizeText(chosen.size)})` : current}
      </div>
    </div>
  );
}
