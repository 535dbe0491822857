import { Flex, Table, Tag, Typography, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { MISSING } from '../format/number';
import { useNarrow } from '../ui/useNarrow';
import type { ImportRow, RowResult } from './api';

/** A row of a batch's outcome as the tables show it (a sheet's row or a pasted line). */
export type ResultRow = Pick<ImportRow, 'row' | 'sn' | 'msg' | 'result'>;

const COLOR: Record<RowResult, string> = {
  created: 'success',
  duplicate: 'warning',
  invalid: 'error',
};

/** A row's result as a coloured tag; `claim` names a created row "added". */
export function ResultTag({ result, claim = false }: { result: RowResult; claim?: boolean }) {
  const { t } = useTranslation();
  const key = result === 'created' && claim ? 'added' : result;
  return (
    <Tag color={COLOR[result]} data-testid="row-result" data-result={result}>
      {t(`sysGateways.result.${key}`)}
    </Tag>
  );
}

/** The counts of each result, as tags. */
export function ResultCounts({
  counts,
  claim = false,
}: {
  counts: Record<RowResult, number>;
  claim?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Flex gap={8} wrap data-testid="result-counts">
      {(['created', 'duplicate', 'invalid'] as const).map((r) => (
        <Tag key={r} color={COLOR[r]} data-testid={`count-${r}`}>
          {t(`sysGateways.result.${r === 'created' && claim ? 'added' : r}`)}: {counts[r]}
        </Tag>
      ))}
    </Flex>
  );
}

/** Every row's outcome: its number, SN, result and, when refused, why. */
export function ResultTable({
  rows,
  claim = false,
  rowLabel,
}: {
  rows: readonly ResultRow[];
  claim?: boolean;
  /** The heading of the row number column ("Row", "Line"). */
  rowLabel: string;
}) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const reason = (r: ResultRow) =>
    r.result === 'created' ? '' : r.msg || t(`sysGateways.result.${r.result}`);
  const columns: TableProps<ResultRow>['columns'] = [
    { key: 'row', title: rowLabel, width: 64, render: (_, r) => r.row },
    {
      key: 'sn',
      title: t('gateways.column.sn'),
      render: (_, r) => (
        <Flex vertical>
          <span data-testid="row-sn">{r.sn || MISSING}</span>
          {phone && reason(r) && (
            <Typography.Text type="secondary" data-testid="row-reason">
              {reason(r)}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      key: 'result',
      title: t('sysGateways.result.title'),
      render: (_, r) => <ResultTag result={r.result} claim={claim} />,
    },
  ];
  if (!phone) {
    columns.push({
      key: 'reason',
      title: t('sysGateways.result.reason'),
      render: (_, r) => <span data-testid="row-reason">{reason(r) || MISSING}</span>,
    });
  }
  return (
    <Table<ResultRow>
      rowKey={(r) => `${r.row}-${r.sn}`}
      size="small"
      columns={columns}
      dataSource={[...rows]}
      pagination={rows.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
      data-testid="result-table"
    />
  );
}
