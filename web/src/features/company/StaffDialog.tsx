import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Avatar,
  Button,
  Col,
  Flex,
  Form,
  Input,
  Row,
  Select,
  Switch,
  Tag,
  Upload,
  type FormRule,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Scope } from '@/shared/company';
import { codeMessage, ErrorCode, isApiError } from '@/shared/http';
import { Limits } from '@/shared/api/limits.gen';
import { currentLanguage } from '@/shared/i18n';
import { GuardedModal } from '@/shared/ui/guarded';
import {
  account as accountRule,
  avatarFile,
  confirmMatches,
  email,
  formRule,
  maxLength,
  newPassword,
  requiredRule,
} from '@/shared/validators';
import {
  accountFree,
  addStaff,
  assignableRolesQuery,
  companyKeys,
  editStaff,
  type NewStaff,
  type StaffEdit,
  type StaffMember,
} from './api';
import { mobile } from './rules';

/** The server's limits of a staff member's profile texts (the same on adding). */
const STAFF = Limits.StaffEditRequest;

interface Values extends Omit<NewStaff, 'avatar'> {
  confirm: string;
  disabled: boolean;
}

/** The account must be free (104): checked when the field is left, and again on submit. */
function accountFreeRule(message: string): FormRule {
  return {
    validateTrigger: 'onBlur',
    validator: async (_rule, value: unknown) => {
      if (typeof value !== 'string' || !value.trim() || accountRule(value)) return;
      let free = true;
      try {
        free = await accountFree(value);
      } catch {
        // the server checks again when the member is added
      }
      if (!free) throw new Error(message);
    },
  };
}

/** A new staff member's avatar: chosen here, previewed, sent with the form. */
function AvatarPicker({
  file,
  onChange,
}: {
  file: File | null;
  onChange: (f: File | null) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : undefined), [file]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  return (
    <Flex gap={16} align="center" wrap style={{ marginBottom: 16 }}>
      <Avatar size={64} src={preview} icon={<UserOutlined />} />
      <Flex vertical gap={4}>
        <Flex gap={8} wrap>
          <Upload
            accept=".jpg,.jpeg,.png"
            showUploadList={false}
            beforeUpload={(f) => {
              const problem = avatarFile(f);
              if (problem) {
                message.error(t(problem.key, problem.values ?? {}));
                return Upload.LIST_IGNORE;
              }
              onChange(f);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="staff-avatar">
              {t('company.staff.avatar')}
            </Button>
          </Upload>
          {file && <Button onClick={() => onChange(null)}>{t('company.logo.clear')}</Button>}
        </Flex>
        <span className="muted-small" style={{ textAlign: 'start' }}>
          {t('preferences.avatarHint')}
        </span>
      </Flex>
    </Flex>
  );
}

/**
 * Adds a staff member (account, password, profile, role, avatar) or edits one (profile, role,
 * enabled). Some accounts' role and state are locked (one's own: 802; the company's
 * administrator, for anyone but an internal administrator): `accessLocked` says why.
 */
export default function StaffDialog({
  scope,
  member,
  accessLocked,
  onClose,
}: {
  scope: Scope;
  member?: StaffMember;
  /** Why the role and state cannot be changed here, when they cannot. */
  accessLocked?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [avatar, setAvatar] = useState<File | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const roles = useQuery(assignableRolesQuery(scope, currentLanguage()));
  const adding = !member;
  const locked = accessLocked !== undefined;

  const done = async (text: string) => {
    message.success(text);
    await queryClient.invalidateQueries({ queryKey: companyKeys.all });
    onClose();
  };
  const add = useMutation({
    mutationFn: (v: Values) => addStaff({ ...v, avatar }, scope),
    onSuccess: () => done(t('company.staff.added')),
    onError: (e) => {
      if (isApiError(e, ErrorCode.AccountExists)) {
        form.setFields([{ name: 'account', errors: [e.message] }]);
      }
    },
  });
  const edit = useMutation({
    mutationFn: (v: StaffEdit) => editStaff(member?.id ?? 0, v),
    onSuccess: () => done(t('common.saved')),
    onError: (e) => {
      if (isApiError(e, ErrorCode.OwnRoleLocked)) setRefusal(e.message);
    },
  });
  const pending = add.isPending || edit.isPending;

  const submit = (v: Values) => {
    setRefusal(null);
    if (adding) {
      add.mutate(v);
      return;
    }
    edit.mutate({
      nickname: v.nickname.trim(),
      name: (v.name ?? '').trim(),
      email: (v.email ?? '').trim(),
      mobile: (v.mobile ?? '').trim(),
      roleId: locked ? (member.roleId ?? null) : v.roleId,
      disabled: locked ? member.disabled : v.disabled,
    });
  };

  const roleOptions = (roles.data ?? []).map((r) => ({
    value: r.id,
    label: (
      <Flex gap={6} align="center">
        <span>{r.name}</span>
        {r.builtin && <Tag style={{ marginInlineEnd: 0 }}>{t('company.roles.builtin')}</Tag>}
      </Flex>
    ),
    title: r.name,
  }));

  return (
    <GuardedModal
      open
      title={
        adding
          ? t('company.staff.addTitle')
          : t('company.staff.editTitle', { account: member.account })
      }
      onCancel={onClose}
      okText={adding ? t('company.staff.addSubmit') : t('common.save')}
      okButtonProps={{ loading: pending, 'data-testid': 'staff-submit' }}
      onOk={() => form.submit()}
      destroyOnHidden
      width={640}
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} />}
      <Form<Values>
        form={form}
        layout="vertical"
        data-testid="staff-form"
        initialValues={{
          account: '',
          password: '',
          confirm: '',
          nickname: member?.nickname ?? '',
          name: member?.name ?? '',
          email: member?.email ?? '',
          mobile: member?.mobile ?? '',
          roleId: member?.roleId ?? undefined,
          disabled: member?.disabled ?? false,
        }}
        onFinish={submit}
      >
        {adding && <AvatarPicker file={avatar} onChange={setAvatar} />}
        <Row gutter={16}>
          {adding && (
            <>
              <Col xs={24} md={24}>
                <Form.Item
                  name="account"
                  label={t('company.staff.account')}
                  validateTrigger={['onChange', 'onBlur']}
                  validateFirst
                  rules={[
                    requiredRule(),
                    formRule(accountRule),
                    accountFreeRule(codeMessage(ErrorCode.AccountExists)),
                  ]}
                  extra={t('company.staff.accountHint')}
                >
                  <Input
                    data-keyfilter="off"
                    autoComplete="off"
                    placeholder={t('login.accountPlaceholder')}
                    data-testid="staff-account-input"
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="password"
                  label={t('company.staff.password')}
                  rules={[requiredRule(), formRule(newPassword)]}
                >
                  <Input.Password autoComplete="new-password" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="confirm"
                  label={t('company.staff.confirm')}
                  dependencies={['password']}
                  rules={[
                    requiredRule(),
                    formRule((v) => confirmMatches(v, form.getFieldValue('password'))),
                  ]}
                >
                  <Input.Password autoComplete="new-password" />
                </Form.Item>
              </Col>
            </>
          )}
          <Col xs={24} md={12}>
            <Form.Item
              name="nickname"
              label={t('company.staff.nickname')}
              rules={[requiredRule(), formRule((v) => maxLength(v, STAFF.nickname.maxLength))]}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="name"
              label={t('company.staff.name')}
              rules={[formRule((v) => maxLength(v, STAFF.name.maxLength))]}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="email" label={t('company.field.email')} rules={[formRule(email)]}>
              <Input data-keyfilter="off" inputMode="email" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="mobile" label={t('company.staff.mobile')} rules={[formRule(mobile)]}>
              <Input inputMode="tel" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="roleId"
              label={t('company.staff.role')}
              rules={locked ? [] : [requiredRule()]}
              extra={accessLocked}
            >
              <Select
                options={roleOptions}
                loading={roles.isPending}
                disabled={locked}
                placeholder={t('company.staff.rolePlaceholder')}
                notFoundContent={roles.isError ? t('company.roles.loadFailed') : undefined}
                optionLabelProp="title"
                data-testid="staff-role-select"
              />
            </Form.Item>
          </Col>
          {!adding && (
            <Col xs={24} md={12}>
              <Form.Item
                name="disabled"
                label={t('company.staff.status')}
                getValueProps={(disabled: boolean) => ({ checked: !disabled })}
                normalize={(checked: boolean) => !checked}
              >
                <Switch
                  disabled={locked}
                  checkedChildren={t('company.staff.enabled')}
                  unCheckedChildren={t('company.staff.disabled')}
                  data-testid="staff-enabled"
                />
              </Form.Item>
            </Col>
          )}
        </Row>
      </Form>
    </GuardedModal>
  );
}
