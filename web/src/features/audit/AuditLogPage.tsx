import './texts';
import { Flex, Select, Tag, Typography, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MISSING } from '@/shared/format/number';
import { RowCard } from '@/shared/list/RowCard';
import { LogTable } from '@/shared/ui/LogTable';
import { outcomeColor } from '@/shared/ui/status';
import { describeAudit } from './describe';
import {
  auditQuery,
  AUDIT_FILTERS,
  KNOWN_ACTIONS,
  outcome,
  targetPath,
  type AuditAction,
  type AuditEntry,
} from './api';

/** The reader's time zone: entry times are shown in it, and say so. */
const READER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Logging / Maintenance log: who did what to which device, when, and how it ended. */
export default function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const actionLabel = (a: string) =>
    i18n.exists(`audit.action.${a}`) ? t(`audit.action.${a}`) : a;

  const time = (r: AuditEntry) => dayjs(r.createAt).format('YYYY-MM-DD HH:mm:ss');
  const target = (r: AuditEntry) => {
    const to = targetPath(r);
    return to ? <Link to={to}>{r.target}</Link> : r.target;
  };
  const detail = (r: AuditEntry) => {
    const lines = describeAudit(r, i18n);
    if (lines.length === 0) return MISSING;
    return (
      <Flex vertical data-testid="audit-detail" style={{ maxWidth: 420 }}>
        {lines.map((line, n) => (
          <Typography.Text key={n}>{line}</Typography.Text>
        ))}
      </Flex>
    );
  };
  const result = (r: AuditEntry) => {
    const s = outcome(r);
    return (
      <Tag color={outcomeColor(s)} data-testid="audit-result" style={{ marginInlineEnd: 0 }}>
        {i18n.exists(`audit.result.${s}`) ? t(`audit.result.${s}`) : s}
      </Tag>
    );
  };
  const action = (r: AuditEntry) => <span data-testid="audit-action">{actionLabel(r.action)}</span>;

  const columns: TableProps<AuditEntry>['columns'] = [
    {
      key: 'time',
      title: t('audit.column.timeIn', { zone: READER_ZONE }),
      width: 190,
      render: (_, r) => time(r),
    },
    { key: 'account', title: t('audit.column.account'), render: (_, r) => r.account },
    {
      key: 'action',
      title: t('audit.column.action'),
      render: (_, r) => action(r),
    },
    {
      key: 'target',
      title: t('audit.column.target'),
      render: (_, r) => target(r),
    },
    {
      key: 'plant',
      title: t('audit.column.plant'),
      render: (_, r) => r.plantName ?? MISSING,
    },
    {
      key: 'detail',
      title: t('audit.column.detail'),
      render: (_, r) => detail(r),
    },
    {
      key: 'result',
      title: t('audit.column.result'),
      render: (_, r) => result(r),
    },
  ];

  return (
    <LogTable
      title={t('audit.title')}
      testId="audit"
      filters={AUDIT_FILTERS}
      queryOptions={auditQuery}
      kindFilter={(query, update) => (
        <Select
          style={{ minWidth: 200 }}
          value={query.action}
          onChange={(action: AuditAction | '') => update({ action })}
          aria-label={t('audit.column.action')}
          options={[
            { value: '', label: t('audit.allActions') },
            ...KNOWN_ACTIONS.map((a) => ({ value: a, label: actionLabel(a) })),
          ]}
        />
      )}
      searches={[
        { field: 'target', label: t('audit.column.target') },
        { field: 'user', label: t('audit.column.account') },
      ]}
      datesLabel={t('audit.dates')}
      loadFailed={t('audit.loadFailed')}
      empty={t('audit.empty')}
      noMatch={t('audit.noMatch')}
      columns={columns}
      scrollX={1100}
      card={(r) => (
        <RowCard
          testId="audit-card"
          title={action(r)}
          status={result(r)}
          fields={[
            { label: t('audit.column.timeIn', { zone: READER_ZONE }), value: time(r) },
            { label: t('audit.column.account'), value: r.account },
            { label: t('audit.column.target'), value: target(r) },
            { label: t('audit.column.plant'), value: r.plantName ?? MISSING },
            { label: t('audit.column.detail'), value: detail(r) },
          ]}
        />
      )}
    />
  );
}
