import { PoweroffOutlined, SettingOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '@/shared/http';
import type { Command } from '@/shared/commands/api';
import { CommandProgress } from '@/shared/commands/CommandProgress';
import { GuardedModal } from '@/shared/ui/guarded';
import { power } from './api';

/**
 * On the inverter detail: a link to its parameter settings and power on/off with a
 * confirmation, each shown only with the caller's key on the plant; the command is followed
 * to the device's answer. `on` is the power state the inverter reports (null when unknown,
 * e.g. offline): the button for the state it is already in is disabled.
 */
export function PowerButtons({
  sn,
  keys,
  on = null,
}: {
  sn: string;
  keys: readonly string[];
  on?: boolean | null;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [commandId, setCommandId] = useState<number | null>(null);
  const [ask, setAsk] = useState<'on' | 'off' | null>(null);
  const send = useMutation({
    mutationFn: (on: boolean) => power(sn, on),
    onSuccess: (c) => {
      setAsk(null);
      setCommandId(c.id);
    },
    onError: (e) => {
      setAsk(null);
      message.error(isApiError(e) ? e.message : t('settings.sendFailed'));
    },
  });
  const mayPower = keys.includes('inverter.power');
  const maySet = keys.includes('inverter.setting');
  if (!mayPower && !maySet) return null;
  const finished = (c: Command) => {
    if (c.status === 'succeeded') message.success(t('settings.power.done'));
  };

  return (
    <Flex vertical gap={8}>
      <Flex gap={8} wrap>
        {maySet && (
          <Link to={`/device/setting?sn=${encodeURIComponent(sn)}`} data-testid="settings-link">
            <Button icon={<SettingOutlined />}>{t('settings.title')}</Button>
          </Link>
        )}
        {mayPower && (
          <>
            <Button
              icon={<ThunderboltOutlined />}
              onClick={() => setAsk('on')}
              disabled={on === true}
              data-testid="power-on"
            >
              {t('settings.power.on')}
            </Button>
            <Button
              danger
              icon={<PoweroffOutlined />}
              onClick={() => setAsk('off')}
              disabled={on === false}
              data-testid="power-off"
            >
              {t('settings.power.off')}
            </Button>
          </>
        )}
      </Flex>
      {commandId !== null && <CommandProgress key={commandId} id={commandId} onFinal={finished} />}
      <GuardedModal
        open={ask !== null}
        title={ask === 'on' ? t('settings.power.on') : t('settings.power.off')}
        okText={t('settings.power.confirm')}
        okButtonProps={{ danger: ask === 'off', loading: send.isPending, id: 'power-confirm' }}
        onOk={() => send.mutate(ask === 'on')}
        onCancel={() => setAsk(null)}
      >
        {ask === 'on' ? t('settings.power.askOn', { sn }) : t('settings.power.askOff', { sn })}
      </GuardedModal>
    </Flex>
  );
}
