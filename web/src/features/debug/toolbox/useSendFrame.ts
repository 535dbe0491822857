import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '@/shared/http';
import { debugReplyQuery, sendFrame, type DebugEntry, type TargetKind } from '../api';

/**
 * Sending a frame to a device and following the exchange until it answers. The device starts
 * as the link that opened the toolbox names it (`?kind=gateway&sn=…`).
 */
export function useSendFrame() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [kind, setKind] = useState<TargetKind>(
    params.get('kind') === 'gateway' ? 'gateway' : 'inverter',
  );
  const [sn, setSn] = useState(params.get('sn') ?? '');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<DebugEntry | null>(null);
  const reply = useQuery(debugReplyQuery(sent?.commandId ?? null));

  const send = (frame: string | undefined) => {
    if (!frame || !sn.trim()) return;
    setSending(true);
    setError(null);
    setSent(null);
    sendFrame(kind, sn, frame)
      .then(setSent)
      .catch((e: unknown) => setError(isApiError(e) ? e.message : t('debug.send.failed')))
      .finally(() => setSending(false));
  };

  return {
    kind,
    setKind,
    sn,
    setSn,
    sending,
    error,
    /** The exchange as last polled, else as the send answered. */
    entry: reply.data ?? sent,
    send,
  };
}

export type FrameSender = ReturnType<typeof useSendFrame>;
