import './texts';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Switch, Table, Typography, type TableProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScopeGate, type Scope } from '@/shared/company';
import { isApiError } from '@/shared/http';
import { useCan } from '@/shared/permissions';
import { Problem } from '@/shared/ui/Problem';
import { RowActionButtons, type RowAction } from '@/shared/ui/RowActionButtons';
import { useNarrow } from '@/shared/ui/useNarrow';
import { alarmKeys, deleteRule, rulesQuery, saveRule, type AlarmRule } from './api';
import { FIELDS } from './params';

const RuleDialog = lazy(() => import('./RuleDialog'));

type Dialog = { rule: AlarmRule | null } | null;

function RulesView({ scope }: { scope: Scope }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const phone = useNarrow();
  const mayEdit = useCan('company.edit');
  const rules = useQuery(rulesQuery(scope));
  const [dialog, setDialog] = useState<Dialog>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: alarmKeys.all });
  const onError = (e: unknown) => {
    if (isApiError(e)) message.error(e.message);
  };

  const toggle = useMutation({
    mutationFn: (r: AlarmRule) => saveRule(scope, r.id, { enabled: !r.enabled }),
    onSuccess: refresh,
    onError,
  });
  const remove = useMutation({
    mutationFn: (r: AlarmRule) => deleteRule(scope, r.id),
    onSuccess: async () => {
      message.success(t('alarms.rules.deleted'));
      await refresh();
    },
    onError,
  });

  const summary = (r: AlarmRule) => {
    const parts = FIELDS[r.kind].map(
      (f) => `${t(`alarms.param.${f.key}`)} ${r.params[f.key] ?? ''}`,
    );
    if (r.kind === 'event_code') {
      if (r.params.allFaults) parts.push(t('alarms.param.allFaults'));
      if (r.params.codes?.length) parts.push(r.params.codes.join(', '));
    }
    return parts.join(' · ');
  };
  const scopeText = (r: AlarmRule) =>
    r.scope === 'all'
      ? t('alarms.rules.scopes.all')
      : `${t(`alarms.rules.scopes.${r.scope}`)} #${r.scopeId ?? ''}`;

  const actions = (r: AlarmRule): RowAction[] =>
    mayEdit
      ? [
          {
            key: 'edit',
            label: t('alarms.rules.edit'),
            icon: <EditOutlined />,
            onClick: () => setDialog({ rule: r }),
          },
          {
            key: 'delete',
            label: t('alarms.rules.delete'),
            icon: <DeleteOutlined />,
            danger: true,
            onClick: () =>
              modal.confirm({
                title: t('alarms.rules.deleteTitle', { kind: t(`alarms.kind.${r.kind}`) }),
                content: t('alarms.rules.deleteHint'),
                okText: t('alarms.rules.delete'),
                okButtonProps: { danger: true },
                cancelText: t('common.cancel'),
                onOk: () => remove.mutateAsync(r).catch(() => undefined),
              }),
          },
        ]
      : [];

  const enabledSwitch = (r: AlarmRule) => (
    <Switch
      checked={r.enabled}
      disabled={!mayEdit}
      loading={toggle.isPending && toggle.variables?.id === r.id}
      onChange={() => toggle.mutate(r)}
      aria-label={t('alarms.rules.enabled')}
      data-testid="rule-enabled"
    />
  );

  const columns: TableProps<AlarmRule>['columns'] = phone
    ? [
        {
          key: 'rule',
          render: (_, r) => (
            <div data-testid="rule-card">
              <Typography.Text strong>{t(`alarms.kind.${r.kind}`)}</Typography.Text>{' '}
              {enabledSwitch(r)}
              <div>
                <Typography.Text type="secondary">
                  {t(`alarms.severity.${r.severity}`)} · {scopeText(r)}
                </Typography.Text>
              </div>
              <div style={{ fontSize: 12 }}>{summary(r)}</div>
              <RowActionButtons
                actions={actions(r)}
                compact={phone}
                menuLabel={t('alarms.rules.actions')}
              />
            </div>
          ),
        },
      ]
    : [
        {
          key: 'enabled',
          title: t('alarms.rules.enabled'),
          width: 90,
          render: (_, r) => enabledSwitch(r),
        },
        {
          key: 'kind',
          title: t('alarms.column.kind'),
          width: 190,
          render: (_, r) => t(`alarms.kind.${r.kind}`),
        },
        {
          key: 'severity',
          title: t('alarms.column.severity'),
          width: 110,
          render: (_, r) => t(`alarms.severity.${r.severity}`),
        },
        {
          key: 'scope',
          title: t('alarms.rules.scope'),
          width: 150,
          render: (_, r) => scopeText(r),
        },
        { key: 'params', title: t('alarms.rules.params'), render: (_, r) => summary(r) },
        {
          key: 'actions',
          width: 110,
          render: (_, r) => (
            <RowActionButtons
              actions={actions(r)}
              compact={phone}
              menuLabel={t('alarms.rules.actions')}
            />
          ),
        },
      ];

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="rules-title">
          {t('alarms.rules.title')}
        </Typography.Title>
      }
      extra={
        mayEdit && (
          <Button
            icon={<PlusOutlined />}
            onClick={() => setDialog({ rule: null })}
            data-testid="rule-add"
          >
            {t('alarms.rules.add')}
          </Button>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('alarms.rules.intro')}</Typography.Paragraph>
      {rules.isError ? (
        <Problem
          title={t('alarms.rules.loadFailed')}
          testId="rules-error"
          extra={<Button onClick={() => void rules.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <Table<AlarmRule>
          rowKey="id"
          data-testid="rules-table"
          size={phone ? 'small' : 'middle'}
          showHeader={!phone}
          loading={rules.isPending}
          columns={columns}
          dataSource={rules.data ?? []}
          pagination={false}
          locale={{ emptyText: <Empty description={t('alarms.rules.empty')} /> }}
        />
      )}
      {dialog && (
        <Suspense fallback={null}>
          <RuleDialog scope={scope} rule={dialog.rule} onClose={() => setDialog(null)} />
        </Suspense>
      )}
    </Card>
  );
}

/** Company / Alarm rules: which alarms the company's plants raise, and how sensitive. */
export default function AlarmRulesPage() {
  return <ScopeGate>{(scope) => <RulesView scope={scope} />}</ScopeGate>;
}
