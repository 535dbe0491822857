import { Alert, Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import './texts';

/** A new secret, shown this once with a copy button: afterwards only its last characters are. */
export function SecretModal({ secret, onClose }: { secret: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('webhooks.secretTitle')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('webhooks.done')}
        </Button>
      }
    >
      <Alert
        type="warning"
        showIcon
        title={t('webhooks.secretOnce')}
        style={{ marginBottom: 16 }}
      />
      <Typography.Paragraph
        code
        copyable={{ text: secret }}
        style={{ wordBreak: 'break-all' }}
        data-testid="webhook-secret"
      >
        {secret}
      </Typography.Paragraph>
    </Modal>
  );
}
