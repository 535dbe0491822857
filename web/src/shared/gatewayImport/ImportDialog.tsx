import { useMutation } from '@tanstack/react-query';
import { Alert, App, Flex, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../http';
import { SheetImportFooter, SheetPicker } from '../ui/SheetImport';
import {
  checkImport,
  countResults,
  downloadTemplate,
  IMPORT_ACCEPT,
  importFileProblem,
  runImport,
  type ImportMode,
  type ImportOutcome,
} from './api';
import { ResultCounts, ResultTable } from './ResultTable';

/**
 * Importing gateways from a sheet: the template, the file, a dry run showing what each row
 * would do, then the import and what each row did. `mode` register adds gateways to the
 * registry (system gateways), claim takes registered ones into the caller's stock or onto a
 * plant (the gateway list). `onImported` runs after the import wrote something.
 */
export function ImportDialog({
  mode,
  onClose,
  onImported,
}: {
  mode: ImportMode;
  onClose: () => void;
  onImported?: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [checked, setChecked] = useState<ImportOutcome | null>(null);
  const [done, setDone] = useState<ImportOutcome | null>(null);
  const [fetching, setFetching] = useState(false);
  const claim = mode === 'claim';

  const refused = (e: unknown) => setProblem(isApiError(e) ? e.message : t('sysGateways.failed'));
  const check = useMutation({
    mutationFn: (f: File) => checkImport(f, mode),
    onSuccess: setChecked,
    onError: refused,
  });
  const run = useMutation({
    mutationFn: (f: File) => runImport(f, mode),
    onSuccess: (outcome) => {
      setDone(outcome);
      if (outcome.succeeded > 0) {
        message.success(t('sysGateways.import.done', { count: outcome.succeeded }));
        onImported?.();
      }
    },
    onError: refused,
  });

  const choose = (f: File) => {
    const why = importFileProblem(f);
    setProblem(why && t(why));
    setFile(why ? null : f);
    setChecked(null);
    setDone(null);
  };

  const template = () => {
    setFetching(true);
    downloadTemplate(mode)
      .catch((e: unknown) => message.error(isApiError(e) ? e.message : t('sysGateways.failed')))
      .finally(() => setFetching(false));
  };

  const shown = done ?? checked;
  const ready = checked ? countResults(checked.results).created : 0;

  const footer = (
    <SheetImportFooter
      testId="import"
      file={file}
      checked={checked !== null}
      done={done !== null}
      ready={ready}
      checking={check.isPending}
      running={run.isPending}
      onCheck={check.mutate}
      onRun={run.mutate}
      onClose={onClose}
      labels={{
        close: t('sysGateways.close'),
        cancel: t('common.cancel'),
        check: t('sysGateways.import.check'),
        run: t('sysGateways.import.run', { count: ready }),
      }}
    />
  );

  return (
    <Modal
      open
      width={760}
      title={t(claim ? 'sysGateways.import.claimTitle' : 'sysGateways.import.title')}
      onCancel={onClose}
      footer={footer}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Flex vertical gap={12} data-testid="import-dialog">
        <Typography.Paragraph style={{ margin: 0 }}>
          {t(claim ? 'sysGateways.import.claimHint' : 'sysGateways.import.hint')}
        </Typography.Paragraph>
        <SheetPicker
          testId="import"
          accept={IMPORT_ACCEPT}
          file={file}
          done={done !== null}
          fetching={fetching}
          onTemplate={template}
          onPick={choose}
          labels={{
            template: t('sysGateways.import.template'),
            pick: t('sysGateways.import.pick'),
            otherFile: t('sysGateways.import.otherFile'),
          }}
        />
        {problem && <Alert type="error" showIcon title={problem} data-testid="import-problem" />}
        {shown && (
          <>
            <Alert
              type={done ? 'success' : 'info'}
              showIcon
              data-testid={done ? 'import-result' : 'import-preview'}
              title={
                done
                  ? t('sysGateways.import.resultTitle', { total: done.total })
                  : t('sysGateways.import.previewTitle', { total: shown.total })
              }
              description={<ResultCounts counts={countResults(shown.results)} claim={claim} />}
            />
            <ResultTable
              rows={shown.results}
              claim={claim}
              rowLabel={t('sysGateways.result.row')}
            />
          </>
        )}
      </Flex>
    </Modal>
  );
}
