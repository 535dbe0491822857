import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Flex, Form, Skeleton, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorCode, isApiError } from '@/shared/http';
import { forgetThisDevice, readPushDevice, rememberPushDevice } from '@/shared/pwa/device';
import { GuardedModal, GuardedPopconfirm, SubmitButton } from '@/shared/ui/guarded';
import { Problem } from '@/shared/ui/Problem';
import { PushChoiceFields } from './PushChoiceFields';
import {
  deletePush,
  pushDevicesQuery,
  pushKey,
  subscribePush,
  testPush,
  updatePush,
  type PushChoice,
  type PushDevice,
} from './pushApi';
import {
  guessDeviceName,
  notificationPermission,
  PushRefused,
  pushSupport,
  subscribeBrowser,
} from './pushBrowser';
import './texts';

const when = (iso: string, language: string) => new Date(iso).toLocaleString(language);

/**
 * "Push notifications on this device" (/edit): turns this browser on with its own choice of
 * alarms, and lists the user's devices with a test and a remove each (docs/pwa.md, "Push").
 */
export function PushSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery(pushDevicesQuery);
  const [support] = useState(pushSupport);
  const [permission, setPermission] = useState(notificationPermission);
  const [storedId, setThisId] = useState(() => readPushDevice()?.id ?? null);
  const [editing, setEditing] = useState<PushDevice | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: pushDevicesQuery.queryKey });

  // the portal removed this device (another session, gone at its push service): forget it here
  const thisId = list.data && !list.data.some((d) => d.id === storedId) ? null : storedId;
  useEffect(() => {
    if (storedId !== null && thisId === null) rememberPushDevice(null);
  }, [storedId, thisId]);

  const remove = useMutation({
    mutationFn: async (d: PushDevice) => {
      if (d.id === thisId) {
        await forgetThisDevice();
        setThisId(null);
      }
      await deletePush(d.id);
    },
    onSettled: refresh,
  });

  if (list.isPending) return <Skeleton active />;
  if (list.isError)
    return (
      <Problem
        title={t('push.loadFailed')}
        testId="push-error"
        extra={<Button onClick={() => void list.refetch()}>{t('push.retry')}</Button>}
      />
    );
  const devices = list.data;
  const here = devices.find((d) => d.id === thisId);

  return (
    <Flex vertical gap={12} style={{ maxWidth: 720 }} data-testid="push">
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('push.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('push.intro')}
      </Typography.Paragraph>
      {support !== 'supported' ? (
        <Alert
          type="info"
          showIcon
          data-testid="push-unsupported"
          title={t('push.unsupported')}
          description={support === 'ios-browser' ? t('push.unsupportedIos') : undefined}
        />
      ) : permission === 'denied' ? (
        <Alert type="warning" showIcon data-testid="push-denied" title={t('push.denied')} />
      ) : here ? (
        <Flex gap={8} align="center" wrap data-testid="push-on">
          <Typography.Text>{t('push.on')}</Typography.Text>
          <GuardedPopconfirm
            title={t('push.removeConfirm')}
            onConfirm={() => remove.mutateAsync(here)}
          >
            <Button>{t('push.turnOff')}</Button>
          </GuardedPopconfirm>
        </Flex>
      ) : (
        <TurnOn
          onDone={(id) => {
            setThisId(id);
            void refresh();
          }}
          onDenied={() => setPermission('denied')}
        />
      )}

      <Typography.Title level={5} style={{ margin: '12px 0 0' }}>
        {t('push.devices')}
      </Typography.Title>
      {devices.length === 0 && <Empty description={t('push.empty')} />}
      {devices.map((d) => (
        <DeviceCard
          key={d.id}
          device={d}
          isThis={d.id === thisId}
          onEdit={() => setEditing(d)}
          onRemove={() => remove.mutateAsync(d)}
        />
      ))}
      {editing && <EditModal device={editing} onClose={() => setEditing(null)} />}
    </Flex>
  );
}

function TurnOn({ onDone, onDenied }: { onDone: (id: number) => void; onDenied: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PushChoice>();
  const on = useMutation({
    mutationFn: async (choice: PushChoice) => {
      const { publicKey } = await pushKey().catch(() => {
        throw new PushRefused('unavailable');
      });
      const body = await subscribeBrowser(publicKey, choice);
      const device = await subscribePush(body);
      rememberPushDevice({ id: device.id, endpoint: body.endpoint });
      return device.id;
    },
    onSuccess: onDone,
    onError: (e) => {
      if (e instanceof PushRefused) {
        if (e.reason === 'denied') onDenied();
        else void message.error(t('push.unavailable'));
        return;
      }
      // a refusal the http client did not show itself (a bad field), or the browser's error
      if (!isApiError(e) || e.code === ErrorCode.InvalidParameter) {
        void message.error(t('push.failed', { reason: e.message }));
      }
    },
  });
  return (
    <Form<PushChoice>
      form={form}
      layout="vertical"
      initialValues={{
        deviceName: guessDeviceName(navigator.userAgent),
        kinds: [],
        minSeverity: 'warning',
      }}
      onFinish={(v) => on.mutate({ ...v, deviceName: v.deviceName.trim() })}
      data-testid="push-form"
    >
      <PushChoiceFields />
      <SubmitButton type="primary" htmlType="submit" loading={on.isPending}>
        {t('push.turnOn')}
      </SubmitButton>
    </Form>
  );
}

function DeviceCard({
  device: d,
  isThis,
  onEdit,
  onRemove,
}: {
  device: PushDevice;
  isThis: boolean;
  onEdit: () => void;
  onRemove: () => Promise<unknown>;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const test = useMutation({
    mutationFn: () => testPush(d.id),
    onSuccess: () => void message.success(t('push.testSent')),
  });
  return (
    <Card size="small" data-testid="push-device">
      <Flex justify="space-between" align="start" gap={8} wrap>
        <Typography.Text strong>{d.deviceName}</Typography.Text>
        {isThis && <Tag color="green">{t('push.thisDevice')}</Tag>}
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {d.endpointHost} · {t('push.created', { time: when(d.createdAt, i18n.language) })}
      </Typography.Text>
      <Flex gap={4} wrap style={{ margin: '8px 0' }}>
        {d.kinds.length === 0 ? (
          <Tag>{t('webhooks.kindsAll')}</Tag>
        ) : (
          d.kinds.map((k) => <Tag key={k}>{t(`webhooks.kind.${k}`)}</Tag>)
        )}
        <Tag color={d.minSeverity === 'alarm' ? 'red' : 'orange'}>
          ≥ {t(`webhooks.severity.${d.minSeverity}`)}
        </Tag>
      </Flex>
      <Typography.Text type="secondary">
        {d.lastSuccessAt
          ? t('push.lastSuccess', { time: when(d.lastSuccessAt, i18n.language) })
          : t('push.never')}
      </Typography.Text>
      {d.lastError && (
        <Typography.Paragraph type="danger" style={{ margin: 0 }}>
          {t('push.lastError', { error: d.lastError })}
        </Typography.Paragraph>
      )}
      <Flex gap={8} wrap style={{ marginTop: 8 }}>
        <Button size="small" onClick={onEdit}>
          {t('push.edit')}
        </Button>
        <SubmitButton size="small" loading={test.isPending} onClick={() => test.mutate()}>
          {t('push.test')}
        </SubmitButton>
        <GuardedPopconfirm title={t('push.removeConfirm')} onConfirm={onRemove}>
          <Button size="small" danger>
            {t('push.remove')}
          </Button>
        </GuardedPopconfirm>
      </Flex>
    </Card>
  );
}

function EditModal({ device, onClose }: { device: PushDevice; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PushChoice>();
  const save = useMutation({
    mutationFn: (v: PushChoice) => updatePush(device.id, { ...v, deviceName: v.deviceName.trim() }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: pushDevicesQuery.queryKey });
      void message.success(t('common.saved'));
      onClose();
    },
    onError: (e) => {
      if (isApiError(e)) form.setFields([{ name: 'deviceName', errors: [e.message] }]);
    },
  });
  return (
    <GuardedModal
      open
      title={t('push.editTitle', { name: device.deviceName })}
      onCancel={onClose}
      okText={t('common.save')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
    >
      <Form<PushChoice>
        form={form}
        layout="vertical"
        initialValues={{
          deviceName: device.deviceName,
          kinds: device.kinds,
          minSeverity: device.minSeverity,
        }}
        onFinish={(v) => save.mutate(v)}
        data-testid="push-edit-form"
      >
        <PushChoiceFields />
      </Form>
    </GuardedModal>
  );
}
