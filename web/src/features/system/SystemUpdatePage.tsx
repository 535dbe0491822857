import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { versionKeys } from '@/shared/api/keys';
import { isApiError } from '@/shared/http';
import { useCan } from '@/shared/permissions';
import { deleteVersion, refusedField, type VersionNote } from './api';
import { UpdateLog } from './UpdateLog';
import { VersionDialog } from './VersionDialog';

/**
 * /systemupdate: the update log inside the signed-in layout. Internal administrators holding
 * sys.version.edit publish, edit and delete release notes here; everyone else only reads.
 */
export default function SystemUpdatePage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const mayEdit = useCan('sys.version.edit');
  const [dialog, setDialog] = useState<{ note?: VersionNote } | null>(null);

  const remove = useMutation({
    mutationFn: (note: VersionNote) => deleteVersion(note.id),
    onSuccess: () => message.success(t('releaseNotes.deleted')),
    onError: (e) => {
      // already gone: the refreshed list shows it
      if (refusedField(e) === 'id') message.info(t('releaseNotes.gone'));
      else if (isApiError(e)) message.error(e.message);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: versionKeys.timeline }),
  });
  const confirmDelete = (note: VersionNote) =>
    modal.confirm({
      title: t('releaseNotes.deleteTitle', { version: note.version }),
      content: t('releaseNotes.deleteText'),
      okText: t('releaseNotes.delete'),
      okButtonProps: { danger: true, 'data-testid': 'version-delete-ok' },
      cancelText: t('common.cancel'),
      onOk: () => remove.mutateAsync(note).catch(() => undefined),
    });

  const actions = (note: VersionNote) => (
    <>
      <Button
        size="small"
        icon={<EditOutlined />}
        onClick={() => setDialog({ note })}
        data-testid="version-edit"
      >
        {t('releaseNotes.edit')}
      </Button>
      <Button
        size="small"
        danger
        icon={<DeleteOutlined />}
        onClick={() => confirmDelete(note)}
        data-testid="version-delete"
      >
        {t('releaseNotes.delete')}
      </Button>
    </>
  );

  return (
    <Card
      title={t('updateLog.title')}
      extra={
        mayEdit && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDialog({})}
            data-testid="version-publish"
          >
            {t('releaseNotes.publish')}
          </Button>
        )
      }
    >
      <UpdateLog actions={mayEdit ? actions : undefined} />
      {dialog && <VersionDialog note={dialog.note} onClose={() => setDialog(null)} />}
    </Card>
  );
}
