import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Col, DatePicker, Form, Input, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { versionKeys } from '@/shared/api/keys';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { formRule, requiredRule } from '@/shared/validators';
import { refusedField, saveVersion, type VersionNote } from './api';
import {
  NOTE_KINDS,
  NOTE_LIMITS,
  noteBody,
  noteValues,
  someContent,
  versionLabel,
  type NoteValues,
} from './noteForm';

const FIELDS: readonly (keyof NoteValues)[] = [
  'version',
  'type',
  'releaseTime',
  'contentCn',
  'contentEn',
];

/** Publish a release note (`note` undefined) or edit one: version, type, time, text in zh and en. */
export function VersionDialog({ note, onClose }: { note?: VersionNote; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<NoteValues>();
  const creating = note === undefined;

  const save = useMutation({
    mutationFn: (values: NoteValues) => saveVersion(noteBody(values, note)),
    onSuccess: async () => {
      message.success(t(creating ? 'releaseNotes.published' : 'releaseNotes.saved'));
      await queryClient.invalidateQueries({ queryKey: versionKeys.timeline });
      onClose();
    },
    onError: async (e) => {
      const field = refusedField(e);
      if (field === 'id') {
        // deleted meanwhile by someone else
        message.error(t('releaseNotes.gone'));
        await queryClient.invalidateQueries({ queryKey: versionKeys.timeline });
        onClose();
        return;
      }
      const named = FIELDS.find((f) => f === field);
      if (named) {
        const key = named === 'version' ? 'releaseNotes.rules.taken' : 'validation.legalContent';
        form.setFields([{ name: named, errors: [t(key)] }]);
      } else if (isApiError(e)) message.error(e.message);
    },
  });

  // runs on empty values too (formRule leaves those to `required`): one of the two is needed
  const contentRules = [
    {
      validator: () => {
        const problem = someContent(
          form.getFieldValue('contentCn'),
          form.getFieldValue('contentEn'),
        );
        return problem ? Promise.reject(new Error(t(problem.key))) : Promise.resolve();
      },
    },
  ];
  const half = { xs: 24, md: 12 };

  return (
    <GuardedModal
      open
      width={760}
      title={
        creating
          ? t('releaseNotes.publishTitle')
          : t('releaseNotes.editTitle', { version: note.version })
      }
      okText={t(creating ? 'releaseNotes.publish' : 'common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'version-save' }}
      destroyOnHidden
    >
      <Form<NoteValues>
        form={form}
        layout="vertical"
        initialValues={noteValues(note)}
        onFinish={(v) => save.mutate(v)}
        data-testid="version-form"
      >
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item
              name="version"
              label={t('releaseNotes.version')}
              extra={t('releaseNotes.versionHint')}
              rules={[requiredRule(), formRule(versionLabel)]}
            >
              <Input
                maxLength={NOTE_LIMITS.version}
                autoComplete="off"
                data-keyfilter="off"
                data-testid="version-input"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="type" label={t('releaseNotes.type')} rules={[requiredRule()]}>
              <Select
                data-testid="version-type"
                options={NOTE_KINDS.map((k) => ({ value: k, label: t(`updateLog.kind.${k}`) }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="releaseTime"
              label={t('releaseNotes.releaseTime')}
              extra={creating ? t('releaseNotes.releaseTimeHint') : undefined}
              rules={creating ? [] : [requiredRule()]}
            >
              <DatePicker
                showTime={{ format: 'HH:mm' }}
                format="YYYY-MM-DD HH:mm"
                allowClear={creating}
                style={{ width: '100%' }}
                data-testid="version-time"
              />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="contentCn"
              label={t('releaseNotes.contentCn')}
              dependencies={['contentEn']}
              rules={contentRules}
            >
              <Input.TextArea
                rows={6}
                maxLength={NOTE_LIMITS.content}
                showCount
                lang="zh"
                data-testid="version-content-cn"
              />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="contentEn"
              label={t('releaseNotes.contentEn')}
              dependencies={['contentCn']}
              rules={contentRules}
            >
              <Input.TextArea
                rows={6}
                maxLength={NOTE_LIMITS.content}
                showCount
                lang="en"
                data-testid="version-content-en"
              />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </GuardedModal>
  );
}
