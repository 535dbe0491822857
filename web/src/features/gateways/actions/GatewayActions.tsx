import {
  ApiOutlined,
  ClockCircleOutlined,
  CodeOutlined,
  ReloadOutlined,
  SettingOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { plantDetailQuery } from '@/shared/api/plants';
import { isApiError } from '@/shared/http';
import { useCan } from '@/shared/permissions';
import { GuardedPopconfirm } from '@/shared/ui/guarded';
import { settingsSwitch } from './api';
import { ProtocolDialog } from './ProtocolDialog';
import { ReplaceDialog } from './ReplaceDialog';
import { RestartDialog } from './RestartDialog';
import { UploadCycleDialog } from './UploadCycleDialog';

interface Props {
  /** The gateway's SN. */
  sn: string;
  /** Its current protocol config code. */
  protocol: string;
  /** Its plant: the plant's permissions decide (a maintainer may restart); none for stock. */
  plantId: number | null;
  /** The upload cycle the gateway reports (seconds), if it said. */
  uploadCycle?: number | null;
}

/**
 * The actions on one gateway (detail page): restart (checked first), replace, change protocol,
 * the settings switch, the upload cycle and the debug toolbox. Each button shows only with its permission; the
 * server checks again per plant.
 */
export function GatewayActions({ sn, protocol, plantId, uploadCycle = null }: Props) {
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
  const [dialog, setDialog] = useState<'restart' | 'replace' | 'protocol' | 'cycle' | null>(null);
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
          <GuardedPopconfirm
            title={t('gatewayActions.switchOnConfirm')}
            onConfirm={() => switchSettings(true)}
          >
            <Button icon={<SettingOutlined />} loading={switching} data-testid="settings-on">
              {t('gatewayActions.settingsOn')}
            </Button>
          </GuardedPopconfirm>
          <GuardedPopconfirm
            title={t('gatewayActions.switchOffConfirm')}
            onConfirm={() => switchSettings(false)}
          >
            <Button loading={switching} data-testid="settings-off">
              {t('gatewayActions.settingsOff')}
            </Button>
          </GuardedPopconfirm>
        </Space.Compact>
      )}
      {maySetting && (
        <Button
          icon={<ClockCircleOutlined />}
          onClick={() => setDialog('cycle')}
          data-testid="gateway-upload-cycle"
        >
          {t('gatewayActions.cycle')}
        </Button>
      )}
      {mayDebug && (
        <Link to={`/debug?kind=gateway&sn=${encodeURIComponent(sn)}`}>
          <Button icon={<CodeOutlined />}>{t('gatewayActions.debug')}</Button>
        </Link>
      )}
      <RestartDialog
        open={dialog === 'restart'}
        onClose={() => setDialog(null)}
        fixed={[sn]}
        plantId={plantId}
      />
      <ReplaceDialog sn={sn} open={dialog === 'replace'} onClose={() => setDialog(null)} />
      <ProtocolDialog
        sn={sn}
        plantId={plantId}
        current={protocol}
        open={dialog === 'protocol'}
        onClose={() => setDialog(null)}
      />
      {dialog === 'cycle' && (
        <UploadCycleDialog
          sn={sn}
          plantId={plantId}
          reported={uploadCycle}
          open
          onClose={() => setDialog(null)}
        />
      )}
    </Space>
  );
}
