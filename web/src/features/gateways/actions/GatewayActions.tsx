import {
  ApiOutlined,
  CodeOutlined,
  ReloadOutlined,
  SettingOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Popconfirm, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '@/shared/http';
import { plantDetailQuery } from '@/features/plants/api';
import { useCan } from '@/shared/permissions';
import { protocolsQuery, replaceGateway, settingsSwitch, updateProtocol } from './api';
import { RestartDialog } from './RestartDialog';

interface Props {
  /** The gateway's SN. */
  sn: string;
  /** Its current protocol config code. */
  protocol: string;
  /** Its plant: the plant's permissions decide (a maintainer may restart); none for stock. */
  plantId: number | null;
}

/** Replace: the plant gets the new gateway (SN and key) and keeps its devices and history. */
function ReplaceDialog({ sn, open, onClose }: { sn: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ newSn: string; key: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = ({ newSn, key }: { newSn: string; key: string }) => {
    setBusy(true);
    setError(null);
    replaceGateway(sn, newSn, key)
      .then((r) => {
        message.success(t('gatewayActions.replaced', { sn: r.newSn, count: r.devices }));
        void queryClient.invalidateQueries({ queryKey: ['gateways'] });
        onClose();
        void navigate(`/device/gateway/${encodeURIComponent(r.newSn)}`);
      })
      .catch((e: unknown) =>
        setError(isApiError(e) ? e.message : t('gatewayActions.requestFailed')),
      )
      .finally(() => setBusy(false));
  };
  return (
    <Modal
      open={open}
      title={t('gatewayActions.replaceTitle', { sn })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('gatewayActions.replace')}
      okButtonProps={{ loading: busy, danger: true, id: 'replace-ok' }}
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        title={t('gatewayActions.replaceHelp')}
        style={{ marginBottom: 16 }}
      />
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="newSn"
          label={t('gatewayActions.newSn')}
          rules={[
            { required: true, message: t('gatewayActions.newSnRequired') },
            { pattern: /^[A-Za-z0-9-]{6,32}$/, message: t('gatewayActions.snRule') },
          ]}
        >
          <Input data-testid="replace-sn" />
        </Form.Item>
        <Form.Item
          name="key"
          label={t('gatewayActions.key')}
          rules={[
            { required: true, message: t('gatewayActions.keyRequired') },
            { pattern: /^[\x21-\x7e]{4,32}$/, message: t('gatewayActions.keyRule') },
          ]}
        >
          <Input data-testid="replace-key" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Change protocol: administrators pick from the configs, others type the code. */
function ProtocolDialog({
  sn,
  current,
  open,
  onClose,
}: {
  sn: string;
  current: string;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const protocols = useQuery({ ...protocolsQuery, enabled: open });
  const [value, setValue] = useState(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    setBusy(true);
    setError(null);
    updateProtocol(sn, value.trim())
      .then(() => {
        message.success(t('gatewayActions.protocolChanged'));
        void queryClient.invalidateQueries({ queryKey: ['gateways'] });
        onClose();
      })
      .catch((e: unknown) =>
        setError(isApiError(e) ? e.message : t('gatewayActions.requestFailed')),
      )
      .finally(() => setBusy(false));
  };
  return (
    <Modal
      open={open}
      title={t('gatewayActions.protocolTitle', { sn })}
      onCancel={onClose}
      onOk={submit}
      okButtonProps={{ loading: busy, disabled: !value.trim() || value.trim() === current }}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      {protocols.data ? (
        <Select
          showSearch
          style={{ width: '100%' }}
          value={value || undefined}
          onChange={setValue}
          aria-label={t('gatewayActions.protocol')}
          options={protocols.data.map((p) => ({ value: p.code, label: `${p.name} (${p.code})` }))}
          loading={protocols.isLoading}
        />
      ) : (
        <Input
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-label={t('gatewayActions.protocol')}
          placeholder={t('gatewayActions.protocolCode')}
        />
      )}
    </Modal>
  );
}

/**
 * The actions on one gateway (detail page): restart (checked first), replace, change protocol,
 * the settings switch and the debug toolbox. Each button shows only with its permission; the
 * server checks again per plant.
 */
export function GatewayActions({ sn, protocol, plantId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const role = {
    'gateway.restart': useCan('gateway.restart'),
    'gateway.replace': useCan('gateway.replace'),
    'gateway.protocol': useCan('gateway.protocol'),
    'inverter.setting': useCan('inverter.setting'),
    'inverter.debug': useCan('inverter.debug'),
  };
  // On a plant the server checks the plant's keys (a maintainer's differ from their role's).
  const plant = useQuery({ ...plantDetailQuery(plantId ?? 0), enabled: plantId !== null });
  const can = (key: keyof typeof role) =>
    plantId === null ? role[key] : (plant.data?.plantPermission ?? []).includes(key);
  const mayRestart = can('gateway.restart');
  const mayReplace = can('gateway.replace') && plantId !== null;
  const mayProtocol = can('gateway.protocol');
  const maySetting = can('inverter.setting');
  const mayDebug = can('inverter.debug');
  const [dialog, setDialog] = useState<'restart' | 'replace' | 'protocol' | null>(null);
  const [switching, setSwitching] = useState(false);

  const switchSettings = (enable: boolean) => {
    setSwitching(true);
    settingsSwitch(sn, enable)
      .then((c) => {
        if (c.status === 'succeeded') message.success(t('gatewayActions.switchApplied'));
        else
          message.error(
            t('gatewayActions.switchFailed', {
              status: t(`gatewayActions.itemStatus.${c.status}`, { defaultValue: c.status }),
            }),
          );
      })
      .catch((e: unknown) =>
        message.error(isApiError(e) ? e.message : t('gatewayActions.requestFailed')),
      )
      .finally(() => setSwitching(false));
  };

  if (!mayRestart && !mayReplace && !mayProtocol && !maySetting && !mayDebug) return null;
  return (
    <Space wrap data-testid="gateway-actions">
      {mayRestart && (
        <Button
          icon={<ReloadOutlined />}
          onClick={() => setDialog('restart')}
          data-testid="gateway-restart"
        >
          {t('gatewayActions.restart')}
        </Button>
      )}
      {mayReplace && (
        <Button
          icon={<SwapOutlined />}
          onClick={() => setDialog('replace')}
          data-testid="gateway-replace"
        >
          {t('gatewayActions.replace')}
        </Button>
      )}
      {mayProtocol && (
        <Button
          icon={<ApiOutlined />}
          onClick={() => setDialog('protocol')}
          data-testid="gateway-protocol"
        >
          {t('gatewayActions.changeProtocol')}
        </Button>
      )}
      {maySetting && (
        <Space.Compact>
          <Popconfirm
            title={t('gatewayActions.switchOnConfirm')}
            onConfirm={() => switchSettings(true)}
          >
            <Button icon={<SettingOutlined />} loading={switching} data-testid="settings-on">
              {t('gatewayActions.settingsOn')}
            </Button>
          </Popconfirm>
          <Popconfirm
            title={t('gatewayActions.switchOffConfirm')}
            onConfirm={() => switchSettings(false)}
          >
            <Button loading={switching} data-testid="settings-off">
              {t('gatewayActions.settingsOff')}
            </Button>
          </Popconfirm>
        </Space.Compact>
      )}
      {mayDebug && (
        <Link to={`/debug?kind=gateway&sn=${encodeURIComponent(sn)}`}>
          <Button icon={<CodeOutlined />}>{t('gatewayActions.debug')}</Button>
        </Link>
      )}
      <RestartDialog open={dialog === 'restart'} onClose={() => setDialog(null)} fixed={[sn]} />
      <ReplaceDialog sn={sn} open={dialog === 'replace'} onClose={() => setDialog(null)} />
      <ProtocolDialog
        sn={sn}
        current={protocol}
        open={dialog === 'protocol'}
        onClose={() => setDialog(null)}
      />
    </Space>
  );
}
