import { SendOutlined } from '@ant-design/icons';
import { Alert, Input, Segmented, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '@/shared/permissions';
import { SubmitButton } from '@/shared/ui/guarded';
import type { TargetKind } from '../api';
import type { FrameSender } from './useSendFrame';

/** Where the frame goes (an inverter or a gateway, by SN) and the send button. */
export function SendPanel({ sender: s, frame }: { sender: FrameSender; frame?: string }) {
  const { t } = useTranslation();
  const mayDebug = useCan('inverter.debug');
  return (
    <>
      <Typography.Title level={5}>{t('debug.send.title')}</Typography.Title>
      {mayDebug ? (
        <Space.Compact style={{ width: '100%' }}>
          <Segmented<TargetKind>
            value={s.kind}
            onChange={s.setKind}
            options={[
              { value: 'inverter', label: t('debug.send.inverter') },
              { value: 'gateway', label: t('debug.send.gateway') },
            ]}
          />
          <Input
            placeholder={t('debug.send.sn')}
            aria-label={t('debug.send.sn')}
            value={s.sn}
            onChange={(e) => s.setSn(e.target.value)}
            onPressEnter={() => s.send(frame)}
            data-testid="debug-sn"
          />
          <SubmitButton
            type="primary"
            icon={<SendOutlined />}
            loading={s.sending}
            disabled={!frame || !s.sn.trim()}
            onClick={() => s.send(frame)}
            data-testid="debug-send"
          >
            {t('debug.send.button')}
          </SubmitButton>
        </Space.Compact>
      ) : (
        <Alert type="info" showIcon title={t('debug.send.noPermission')} />
      )}
      {s.error && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          title={s.error}
          data-testid="debug-send-error"
        />
      )}
    </>
  );
}
