import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Checkbox, Flex, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import {
  batchDeleteFirmware,
  changeEnabled,
  deleteFirmware,
  downloadFirmware,
  firmwareKeys,
  type FirmwareItem,
} from './api';
import { refusalDetail } from './rules';

/**
 * The confirmations and requests of a firmware list's actions: enable (optionally notifying the
 * owners of fitting devices) or disable, delete one or many (the refused ones with why), download.
 */
export function useFirmwareActions(rows: readonly FirmwareItem[], onDeleted: () => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: firmwareKeys.all });
  const failure = (e: unknown) =>
    message.error(
      refusalDetail(e) === 'inUse'
        ? t('firmware.refusal.inUse')
        : isApiError(e)
          ? e.message
          : t('errors.requestError'),
    );

  const toggle = useMutation({
    mutationFn: (p: { item: FirmwareItem; notify: boolean }) =>
      changeEnabled(p.item.id, !p.item.enabled, p.notify),
    onSuccess: async (_d, p) => {
      message.success(
        t(
          p.item.enabled
            ? 'firmware.disabledDone'
            : p.notify
              ? 'firmware.enabledNotified'
              : 'firmware.enabledDone',
        ),
      );
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (item: FirmwareItem) => deleteFirmware(item.id),
    onSuccess: async () => {
      message.success(t('firmware.deleted'));
      await refresh();
    },
    onError: failure,
  });
  const removeMany = useMutation({
    mutationFn: (ids: number[]) => batchDeleteFirmware(ids),
    onSuccess: async (result) => {
      onDeleted();
      await refresh();
      if (result.refused.length === 0) {
        message.success(t('firmware.batchDeleted', { count: result.deleted }));
        return;
      }
      const nameOf = (id: number) => {
        const f = rows.find((r) => r.id === id);
        return f ? `${f.name} ${f.version}` : `#${id}`;
      };
      modal.warning({
        title: t('firmware.batchResult', {
          deleted: result.deleted,
          refused: result.refused.length,
        }),
        content: (
          <List
            size="small"
            data-testid="batch-refused"
            dataSource={result.refused}
            renderItem={(r) => (
              <List.Item>
                <Flex vertical>
                  <Typography.Text strong>{nameOf(r.id)}</Typography.Text>
                  <Typography.Text type="secondary">
                    {/inUse/.test(r.msg) ? t('firmware.refusal.inUse') : r.msg}
                  </Typography.Text>
                </Flex>
              </List.Item>
            )}
          />
        ),
        okText: t('common.confirm'),
      });
    },
  });

  const confirmToggle = (item: FirmwareItem) => {
    // the confirmation's own choice, read when it is confirmed
    let notify = false;
    const enabling = !item.enabled;
    modal.confirm({
      title: t(enabling ? 'firmware.enableTitle' : 'firmware.disableTitle', {
        name: `${item.name} ${item.version}`,
      }),
      content: (
        <Flex vertical gap={8}>
          <span>{t(enabling ? 'firmware.enableText' : 'firmware.disableText')}</span>
          {enabling && (
            <Checkbox
              onChange={(e) => {
                notify = e.target.checked;
              }}
              data-testid="firmware-notify"
            >
              {t('firmware.notifyOwners')}
            </Checkbox>
          )}
        </Flex>
      ),
      okText: t(enabling ? 'firmware.enable' : 'firmware.disable'),
      okButtonProps: { danger: !enabling, 'data-testid': 'firmware-toggle-ok' },
      cancelText: t('common.cancel'),
      onOk: () => toggle.mutateAsync({ item, notify }).catch(() => undefined),
    });
  };

  const confirmDelete = (item: FirmwareItem) =>
    modal.confirm({
      title: t('firmware.deleteTitle', { name: `${item.name} ${item.version}` }),
      content: t(item.inUse ? 'firmware.refusal.inUse' : 'firmware.deleteText'),
      okText: t('firmware.delete'),
      okButtonProps: { danger: true, disabled: item.inUse, 'data-testid': 'firmware-delete-ok' },
      cancelText: t('common.cancel'),
      onOk: () => remove.mutateAsync(item).catch(() => undefined),
    });

  const confirmDeleteMany = (ids: number[]) =>
    modal.confirm({
      title: t('firmware.batchDeleteTitle', { count: ids.length }),
      content: t('firmware.deleteText'),
      okText: t('firmware.delete'),
      okButtonProps: { danger: true, 'data-testid': 'firmware-batch-delete-ok' },
      cancelText: t('common.cancel'),
      onOk: () => removeMany.mutateAsync(ids).catch(() => undefined),
    });

  const download = (item: FirmwareItem) =>
    void downloadFirmware(item).catch((e: unknown) =>
      message.error(isApiError(e) ? e.message : t('firmware.downloadFailed')),
    );

  return { confirmToggle, confirmDelete, confirmDeleteMany, download, toggling: toggle };
}
