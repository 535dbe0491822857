import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Flex, Modal, Table, Tag, Typography, type TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { isApiError } from '@/shared/http';
import { SheetImportFooter, SheetPicker } from '@/shared/ui/SheetImport';
import { useNarrow } from '@/shared/ui/useNarrow';
import {
  downloadPredictedTemplate,
  importPredicted,
  OVERVIEW_ENERGY_KEY,
  PREDICTED_ACCEPT,
  predictedFileProblem,
  workdataKeys,
  type PredictedImport,
  type PredictedRow,
} from './api';
import { rowPeriod } from './predicted';

/**
 * Importing predicted generation: the template, the file, a dry run showing what each row
 * would do (and why a row is refused), then the import. Valid rows are stored together; the
 * refused ones are listed with the reason.
 */
export function PredictedDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const phone = useNarrow();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [checked, setChecked] = useState<PredictedImport | null>(null);
  const [done, setDone] = useState<PredictedImport | null>(null);
  const [fetching, setFetching] = useState(false);

  const refused = (e: unknown) =>
    setProblem(isApiError(e) ? e.message : t('workdata.predicted.failed'));
  const check = useMutation({
    mutationFn: (f: File) => importPredicted(f, true),
    onSuccess: setChecked,
    onError: refused,
  });
  const run = useMutation({
    mutationFn: (f: File) => importPredicted(f, false),
    onSuccess: async (outcome) => {
      setDone(outcome);
      if (outcome.imported > 0) {
        message.success(t('workdata.predicted.done', { count: outcome.imported }));
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: OVERVIEW_ENERGY_KEY }),
          queryClient.invalidateQueries({ queryKey: workdataKeys.all }),
        ]);
      }
    },
    onError: refused,
  });

  const choose = (f: File) => {
    const why = predictedFileProblem(f);
    setProblem(why && t(why));
    setFile(why ? null : f);
    setChecked(null);
    setDone(null);
  };
  const template = () => {
    setFetching(true);
    downloadPredictedTemplate()
      .catch((e: unknown) =>
        message.error(isApiError(e) ? e.message : t('workdata.downloadFailed')),
      )
      .finally(() => setFetching(false));
  };

  const shown = done ?? checked;
  const ready = checked ? checked.total - checked.failed : 0;
  const result = (r: PredictedRow) => (
    <Tag
      color={r.success ? 'success' : 'error'}
      data-testid="predicted-row-result"
      data-success={String(r.success)}
    >
      {t(r.success ? 'workdata.predicted.ok' : 'workdata.predicted.refused')}
    </Tag>
  );
  const columns: TableProps<PredictedRow>['columns'] = [
    { key: 'row', title: t('workdata.predicted.row'), width: 64, render: (_, r) => r.row },
    {
      key: 'plant',
      title: t('workdata.predicted.plant'),
      render: (_, r) => r.plantId ?? MISSING,
    },
    {
      key: 'period',
      title: t('workdata.predicted.period'),
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      render: (_, r) => rowPeriod(r),
    },
    {
      key: 'result',
      title: t('workdata.predicted.result'),
      render: (_, r) =>
        phone ? (
          <Flex vertical gap={2}>
            {result(r)}
            {!r.success && <Typography.Text type="secondary">{r.msg}</Typography.Text>}
          </Flex>
        ) : (
          result(r)
        ),
    },
  ];
  if (!phone) {
    columns.push({
      key: 'msg',
      title: t('workdata.predicted.reason'),
      render: (_, r) => (
        <span data-testid="predicted-row-reason">{r.success ? MISSING : r.msg || MISSING}</span>
      ),
    });
  }

  const footer = (
    <SheetImportFooter
      testId="predicted"
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
        close: t('workdata.predicted.close'),
        cancel: t('common.cancel'),
        check: t('workdata.predicted.check'),
        run: t('workdata.predicted.run', { count: ready }),
      }}
    />
  );

  return (
    <Modal
      open
      width={760}
      title={t('workdata.predicted.title')}
      onCancel={onClose}
      footer={footer}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Flex vertical gap={12} data-testid="predicted-dialog">
        <Typography.Paragraph style={{ margin: 0 }}>
          {t('workdata.predicted.hint')}
        </Typography.Paragraph>
        <SheetPicker
          testId="predicted"
          accept={PREDICTED_ACCEPT}
          file={file}
          done={done !== null}
          fetching={fetching}
          onTemplate={template}
          onPick={choose}
          labels={{
            template: t('workdata.predicted.template'),
            pick: t('workdata.predicted.pick'),
            otherFile: t('workdata.predicted.otherFile'),
          }}
        />
        {problem && <Alert type="error" showIcon title={problem} data-testid="predicted-problem" />}
        {shown && (
          <>
            <Alert
              type={done ? (done.failed ? 'warning' : 'success') : 'info'}
              showIcon
              data-testid={done ? 'predicted-result' : 'predicted-preview'}
              title={t(
                done ? 'workdata.predicted.resultTitle' : 'workdata.predicted.previewTitle',
                {
                  total: shown.total,
                  ok: done ? done.imported : shown.total - shown.failed,
                  failed: shown.failed,
                },
              )}
            />
            <Table<PredictedRow>
              rowKey="row"
              size="small"
              columns={columns}
              dataSource={shown.rows}
              pagination={shown.rows.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
              data-testid="predicted-rows"
            />
          </>
        )}
      </Flex>
    </Modal>
  );
}
