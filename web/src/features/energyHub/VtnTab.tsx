import { DeleteOutlined, EditOutlined, PlusOutlined, SyncOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Card,
  Flex,
  Form,
  Input,
  InputNumber,
  Select,
  Switch,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
import { MISSING } from '@/shared/format/number';
import { Problem } from '@/shared/ui/Problem';
import { GuardedModal, GuardedPopconfirm, SubmitButton } from '@/shared/ui/guarded';
import { useNarrow } from '@/shared/ui/useNarrow';
import { formRule, lengthBetween, maxLength, requiredRule } from '@/shared/validators';
import { removeVtn, saveVtn, syncVtn, vtnsQuery } from './api';
import { shortTime } from './time';
import type { Vtn, VtnBody } from './types';
import { isHttpUrl } from './url';
import { useEnergyHubMutation } from './useEnergyHubMutation';

const VTN = Limits.VtnRequest;
const POLL = VTN.pollSeconds;

/** OpenADR versions a utility's server may speak. */
const VTN_VERSIONS = ['3.1.0', '3.0.1'] as const;

/** The utility's OpenADR servers (VTNs) the portal polls: list, add, edit, sync now, remove. */
export function VtnTab() {
  const { t } = useTranslation();
  const phone = useNarrow();
  const vtns = useQuery(vtnsQuery);
  const [editing, setEditing] = useState<Vtn | 'new' | null>(null);
  const sync = useEnergyHubMutation((id: number) => syncVtn(id), 'energyHub.synced');
  const remove = useEnergyHubMutation((id: number) => removeVtn(id), 'energyHub.vtnRemoved');

  const state = (v: Vtn) => (
    <Flex vertical gap={2}>
      <Badge
        status={
          !v.enabled ? 'default' : v.lastError ? 'error' : v.lastSyncAt ? 'success' : 'processing'
        }
        text={t(
          !v.enabled
            ? 'energyHub.disabled'
            : v.lastError
              ? 'energyHub.syncFailed'
              : 'energyHub.enabled',
        )}
      />
      <Typography.Text type="secondary">
        {t('energyHub.lastSync', { at: shortTime(v.lastSyncAt) })}
      </Typography.Text>
      {v.lastError && (
        <Typography.Text type="danger" style={{ wordBreak: 'break-word' }}>
          {v.lastError}
        </Typography.Text>
      )}
      {v.enabled && <Notifications vtn={v} />}
      <RefusedList items={v.refusedEvents} />
    </Flex>
  );

  return (
    <Card
      title={t('energyHub.vtnTitle')}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing('new')}
          data-testid="hub-vtn-new"
        >
          {t('energyHub.newVtn')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('energyHub.vtnIntro')}</Typography.Paragraph>
      {vtns.isError ? (
        <Problem
          title={t('energyHub.loadFailed')}
          testId="hub-vtns-error"
          extra={<Button onClick={() => void vtns.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <Table<Vtn>
          rowKey="id"
          size={phone ? 'small' : 'middle'}
          loading={vtns.isFetching}
          dataSource={vtns.data ?? []}
          pagination={false}
          locale={{ emptyText: t('energyHub.noVtns') }}
          data-testid="hub-vtns"
          columns={[
            {
              key: 'name',
              title: t('energyHub.vtnName'),
              render: (_, v) => (
                <Flex vertical gap={2}>
                  <span>{v.name}</span>
                  <Typography.Text type="secondary" style={{ wordBreak: 'break-all' }}>
                    {v.url} · OpenADR {v.version}
                  </Typography.Text>
                  {phone && state(v)}
                </Flex>
              ),
            },
            ...(phone
              ? []
              : [
                  {
                    key: 'ven',
                    title: t('energyHub.venName'),
                    render: (_: unknown, v: Vtn) => (
                      <Flex vertical>
                        <span>{v.venName}</span>
                        <Typography.Text type="secondary">
                          {t('energyHub.clientIdHint', { hint: v.clientIdHint || MISSING })}
                        </Typography.Text>
                      </Flex>
                    ),
                  },
                  {
                    key: 'state',
                    title: t('energyHub.statusLabel'),
                    render: (_: unknown, v: Vtn) => state(v),
                  },
                ]),
            {
              key: 'actions',
              title: '',
              render: (_, v) => (
                <Flex gap={4} wrap>
                  <SubmitButton
                    size="small"
                    icon={<SyncOutlined />}
                    loading={sync.isPending && sync.variables === v.id}
                    disabled={!v.enabled}
                    onClick={() => sync.mutate(v.id)}
                    data-testid="hub-vtn-sync"
                  >
                    {phone ? undefined : t('energyHub.syncNow')}
                  </SubmitButton>
                  <Button
                    size="small"
                    type="text"
                    icon={<EditOutlined />}
                    aria-label={t('energyHub.editVtn')}
                    onClick={() => setEditing(v)}
                  />
                  <GuardedPopconfirm
                    title={t('energyHub.removeVtnConfirm', { name: v.name })}
                    okText={t('energyHub.remove')}
                    cancelText={t('common.cancel')}
                    onConfirm={() => remove.mutateAsync(v.id)}
                  >
                    <Button
                      size="small"
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('energyHub.remove')}
                    />
                  </GuardedPopconfirm>
                </Flex>
              ),
            },
          ]}
        />
      )}
      {editing && (
        <VtnDialog vtn={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
    </Card>
  );
}

/** Whether the utility's server calls the portal on changes, or why the portal polls only. */
function Notifications({ vtn }: { vtn: Vtn }) {
  const { t } = useTranslation();
  let text: string;
  if (vtn.notifications === 'webhook') text = t('energyHub.vtnSync.notifyWebhook');
  else if (vtn.notificationsReason === 'noPublicUrl')
    text = t('energyHub.vtnSync.notifyNoPublicUrl');
  else if (vtn.notificationsReason === 'notOffered') text = t('energyHub.vtnSync.notifyNotOffered');
  else if (vtn.notificationsReason === 'failed')
    text = t('energyHub.vtnSync.notifyFailed', { note: vtn.notificationsNote });
  else return null;
  return (
    <Typography.Text
      type="secondary"
      style={{ wordBreak: 'break-word' }}
      data-testid="hub-vtn-notify"
    >
      {text}
    </Typography.Text>
  );
}

/** What the last sync skipped because it could not be read (the rest was applied). */
function RefusedList({ items }: { items: Vtn['refusedEvents'] }) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <Flex vertical gap={2} data-testid="hub-vtn-refused">
      <Typography.Text type="warning">
        {t('energyHub.vtnSync.refusedTitle', { count: items.length })}
      </Typography.Text>
      <Typography.Text type="secondary">{t('energyHub.vtnSync.refusedHelp')}</Typography.Text>
      <ul style={{ margin: 0, paddingInlineStart: 16 }}>
        {items.map((r, i) => (
          <li key={`${r.program}-${r.id}-${i}`} style={{ wordBreak: 'break-word' }}>
            <Typography.Text type="secondary">
              {t('energyHub.vtnSync.refusedItem', { id: r.id, reason: r.reason })}
            </Typography.Text>
          </li>
        ))}
      </ul>
    </Flex>
  );
}

interface VtnValues {
  name: string;
  url: string;
  version: string;
  venName: string;
  pollSeconds: number;
  enabled: boolean;
  clientId?: string;
  clientSecret?: string;
}

function VtnDialog({ vtn, onClose }: { vtn?: Vtn; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<VtnValues>();
  const save = useEnergyHubMutation(
    (v: VtnValues) => {
      const body: VtnBody = {
        ...(vtn ? { id: vtn.id } : {}),
        name: v.name.trim(),
        url: v.url.trim(),
        version: v.version,
        venName: v.venName.trim(),
        pollSeconds: Number(v.pollSeconds),
        enabled: v.enabled,
      };
      // the secret is write-only: left out on an edit, the stored one stays
      if (v.clientId?.trim()) body.clientId = v.clientId.trim();
      if (v.clientSecret) body.clientSecret = v.clientSecret;
      return saveVtn(body);
    },
    'common.saved',
    onClose,
  );
  return (
    <GuardedModal
      open
      title={vtn ? t('energyHub.editVtn') : t('energyHub.newVtn')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<VtnValues>
        form={form}
        layout="vertical"
        initialValues={
          vtn
            ? { ...vtn, clientId: '', clientSecret: '' }
            : { name: '', url: '', version: '3.1.0', venName: '', pollSeconds: 30, enabled: true }
        }
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item
          name="name"
          label={t('energyHub.vtnName')}
          rules={[
            requiredRule(),
            formRule((v) => lengthBetween(v, VTN.name.minLength, VTN.name.maxLength)),
          ]}
        >
          <Input maxLength={VTN.name.maxLength} />
        </Form.Item>
        <Form.Item
          name="url"
          label={t('energyHub.vtnUrl')}
          rules={[
            requiredRule(),
            {
              validator: (_rule, value: unknown) =>
                !value || isHttpUrl(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('energyHub.badUrl'))),
            },
          ]}
        >
          <Input placeholder="https://vtn.example.com/openadr3" data-keyfilter="off" />
        </Form.Item>
        <Form.Item name="version" label={t('energyHub.version')} rules={[requiredRule()]}>
          <Select options={VTN_VERSIONS.map((v) => ({ value: v, label: `OpenADR ${v}` }))} />
        </Form.Item>
        <Form.Item
          name="venName"
          label={t('energyHub.venName')}
          rules={[
            requiredRule(),
            formRule((v) => lengthBetween(v, VTN.venName.minLength, VTN.venName.maxLength)),
          ]}
        >
          <Input maxLength={VTN.venName.maxLength} data-keyfilter="off" />
        </Form.Item>
        <Form.Item
          name="clientId"
          label={t('energyHub.clientId')}
          extra={
            vtn ? t('energyHub.clientIdKept', { hint: vtn.clientIdHint || MISSING }) : undefined
          }
          rules={[
            ...(vtn ? [] : [requiredRule()]),
            formRule((v) => maxLength(v, VTN.clientId.maxLength)),
          ]}
        >
          <Input autoComplete="off" data-keyfilter="off" />
        </Form.Item>
        <Form.Item
          name="clientSecret"
          label={t('energyHub.clientSecret')}
          extra={vtn ? t('energyHub.secretKept') : t('energyHub.secretWriteOnly')}
          rules={[
            ...(vtn ? [] : [requiredRule()]),
            formRule((v) => maxLength(v, VTN.clientSecret.maxLength)),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Flex gap={24} wrap>
          <Form.Item
            name="pollSeconds"
            label={t('energyHub.pollSeconds')}
            rules={[
              requiredRule(),
              {
                type: 'number',
                min: POLL.minimum,
                max: POLL.maximum,
                message: t('validation.range', { min: POLL.minimum, max: POLL.maximum }),
              },
            ]}
          >
            <InputNumber min={POLL.minimum} max={POLL.maximum} precision={0} />
          </Form.Item>
          <Form.Item name="enabled" label={t('energyHub.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Flex>
      </Form>
    </GuardedModal>
  );
}
