import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GuardedModal } from '@/shared/ui/guarded';
import { companyKeys, deleteStaff, type StaffMember } from './api';
import { confirmed } from './rules';

/**
 * Deletes a staff member once their account is typed: the account is freed and signed out;
 * their plants and history stay.
 */
export default function DeleteStaffDialog({
  member,
  onClose,
}: {
  member: StaffMember;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const remove = useMutation({
    mutationFn: () => deleteStaff(member.id),
    onSuccess: async () => {
      message.success(t('company.staff.deleted'));
      await queryClient.invalidateQueries({ queryKey: companyKeys.all });
      onClose();
    },
  });
  return (
    <GuardedModal
      open
      title={t('company.staff.deleteTitle', { account: member.account })}
      onCancel={onClose}
      okText={t('company.staff.delete')}
      okButtonProps={{
        danger: true,
        disabled: !confirmed(typed, member.account),
        loading: remove.isPending,
        'data-testid': 'staff-delete-submit',
      }}
      onOk={() => remove.mutate()}
      destroyOnHidden
    >
      <Typography.Paragraph type="danger">{t('company.staff.deleteWarning')}</Typography.Paragraph>
      <Form layout="vertical" onFinish={() => confirmed(typed, member.account) && remove.mutate()}>
        <Form.Item label={t('company.staff.deleteConfirm', { account: member.account })} required>
          <Input
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            data-keyfilter="off"
            autoComplete="off"
            placeholder={member.account}
            data-testid="staff-delete-confirm"
          />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
