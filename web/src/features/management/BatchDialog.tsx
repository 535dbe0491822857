import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Input, Modal, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  countResults,
  ResultCounts,
  ResultTable,
  type ImportOutcome,
} from '@/shared/gatewayImport';
import { isApiError } from '@/shared/http';
import { SubmitButton } from '@/shared/ui/guarded';
import { createGateways } from './api';
import { BATCH_MAX, parseLines } from './rules';

/**
 * Registers many gateways at once from pasted lines "SN,KEY[,model,commType,protocol]". The
 * lines are checked here first (a bad line names its problem and blocks the send); the server
 * then answers every line on its own: created, duplicate or invalid.
 */
export function BatchDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<{ result: ImportOutcome; lines: number[] } | null>(null);
  const lines = useMemo(() => parseLines(text), [text]);
  const bad = lines.filter((l) => l.problem);
  const tooMany = lines.length > BATCH_MAX;

  const send = useMutation({
    mutationFn: () => createGateways(lines.map((l) => l.gateway)),
    onSuccess: (result) => {
      setOutcome({ result, lines: lines.map((l) => l.line) });
      if (result.succeeded > 0) {
        message.success(t('sysGateways.batch.done', { count: result.succeeded }));
        onDone();
      }
    },
    onError: (e) => message.error(isApiError(e) ? e.message : t('sysGateways.failed')),
  });

  // the server numbers the rows it was sent; show the pasted line each one came from
  const rows = outcome?.result.results.map((r) => ({
    ...r,
    row: outcome.lines[r.row - 1] ?? r.row,
  }));

  const footer = outcome ? (
    <Button type="primary" onClick={onClose} data-testid="batch-close">
      {t('sysGateways.close')}
    </Button>
  ) : (
    <Flex gap={8} justify="flex-end" wrap>
      <Button onClick={onClose}>{t('common.cancel')}</Button>
      <SubmitButton
        type="primary"
        disabled={lines.length === 0 || bad.length > 0 || tooMany}
        loading={send.isPending}
        onClick={() => send.mutate()}
        data-testid="batch-ok"
      >
        {t('sysGateways.batch.ok', { count: lines.length })}
      </SubmitButton>
    </Flex>
  );

  return (
    <Modal
      open
      width={720}
      title={t('sysGateways.batch.title')}
      onCancel={onClose}
      footer={footer}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Flex vertical gap={12}>
        {outcome && rows ? (
          <>
            <ResultCounts counts={countResults(outcome.result.results)} />
            <ResultTable rows={rows} rowLabel={t('sysGateways.batch.line')} />
          </>
        ) : (
          <>
            <Typography.Paragraph style={{ margin: 0 }} id="batch-hint">
              {t('sysGateways.batch.hint', { max: BATCH_MAX })}
            </Typography.Paragraph>
            <Input.TextArea
              value={text}
              onChange={(e) => setText(e.target.value)}
              autoSize={{ minRows: 6, maxRows: 14 }}
              placeholder={'GW-2024-000101,Key0101,GW-200,wifi,modbus\nGW-2024-000102,Key0102'}
              aria-label={t('sysGateways.batch.lines')}
              aria-describedby="batch-hint"
              spellCheck={false}
              style={{ fontFamily: 'monospace' }}
              data-testid="batch-lines"
            />
            <Typography.Text type="secondary" data-testid="batch-count">
              {t('sysGateways.batch.count', { count: lines.length })}
            </Typography.Text>
            {tooMany && (
              <Alert
                type="error"
                showIcon
                title={t('sysGateways.batch.tooMany', { max: BATCH_MAX })}
              />
            )}
            {bad.length > 0 && (
              <Alert
                type="error"
                showIcon
                data-testid="batch-problems"
                title={t('sysGateways.batch.problems', { count: bad.length })}
                description={
                  <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                    {bad.slice(0, 10).map((l) => (
                      <li key={l.line}>
                        {t('sysGateways.batch.lineProblem', {
                          line: l.line,
                          problem: l.problem ? t(l.problem.key, l.problem.values ?? {}) : '',
                        })}
                      </li>
                    ))}
                  </ul>
                }
              />
            )}
          </>
        )}
      </Flex>
    </Modal>
  );
}
