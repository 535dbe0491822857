import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export const CODE_COOLDOWN_S = 60;

/** "Get code" with a 60 s countdown once a code was sent (the server rate-limits to one a minute). */
export function CodeButton({
  onSend,
  disabled,
  label,
  testId,
}: {
  onSend: () => Promise<boolean>;
  disabled?: boolean;
  /** Instead of "Get code". */
  label?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return undefined;
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  return (
    <Button
      data-testid={testId}
      disabled={disabled || left > 0}
      loading={sending}
      onClick={async () => {
        setSending(true);
        try {
          if (await onSend()) setLeft(CODE_COOLDOWN_S);
        } finally {
          setSending(false);
        }
      }}
    >
      {left > 0 ? t('auth.resendIn', { seconds: left }) : (label ?? t('auth.getCode'))}
    </Button>
  );
}
