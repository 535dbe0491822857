import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Input, Typography, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ScopeGate } from '@/shared/company';
import { formatNumber, MISSING } from '@/shared/format/number';
import { useDraft } from '@/shared/hooks/useDraft';
import { PagedTable } from '@/shared/list/PagedTable';
import { useListQuery } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { useMediaQuery, useNarrow } from '@/shared/ui/useNarrow';
import { AGENT_FILTERS, agentsQuery, companyKeys, removeAgent, type Agent } from './api';
import { RowActionButtons } from '@/shared/ui/RowActionButtons';
import './company.css';

const AddAgentDialog = lazy(() => import('./AddAgentDialog'));
const nowrap = { style: { whiteSpace: 'nowrap' as const } };

function AgentsView() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const phone = useNarrow();
  const wide = useMediaQuery('(min-width: 1200px)');
  const mayEdit = useCan('company.agent.edit');
  const { query, list, update, setPage, filtered } = useListQuery(AGENT_FILTERS, agentsQuery);
  const [search, setSearch] = useDraft(query.name);
  const [adding, setAdding] = useState(false);

  const remove = useMutation({
    mutationFn: (a: Agent) => removeAgent(a.id),
    onSuccess: async () => {
      message.success(t('agents.removed'));
      await queryClient.invalidateQueries({ queryKey: companyKeys.all });
    },
  });
  const confirmRemove = (a: Agent) =>
    modal.confirm({
      title: t('agents.removeTitle', { name: a.companyName }),
      content: t('agents.removeText'),
      okText: t('agents.remove'),
      okButtonProps: { danger: true, 'data-testid': 'agent-remove-submit' },
      cancelText: t('common.cancel'),
      onOk: () => remove.mutateAsync(a).catch(() => undefined),
    });

  const columns: NonNullable<TableProps<Agent>['columns']> = [
    {
      key: 'company',
      title: t('agents.company'),
      onHeaderCell: () => nowrap,
      render: (_, a) => (
        <div>
          <span className="company-cell-main" data-testid="agent-name">
            {a.companyName}
          </span>
          <Typography.Text type="secondary" className="company-cell-sub">
            {phone
              ? [a.adminAccount, t('agents.counts', { plants: a.plants, gateways: a.gateways })]
                  .filter(Boolean)
                  .join(' · ')
              : a.adminAccount}
          </Typography.Text>
        </div>
      ),
    },
  ];
  if (!phone) {
    columns.push({
      key: 'contact',
      title: t('agents.contact'),
      render: (_, a) =>
        a.contactName || a.phone || a.email ? (
          <div>
            {a.contactName && <div>{a.contactName}</div>}
            {a.phone && <div>{a.phone}</div>}
            {a.email && <div style={{ overflowWrap: 'anywhere' }}>{a.email}</div>}
          </div>
        ) : (
          MISSING
        ),
    });
    columns.push(
      {
        key: 'plants',
        title: t('agents.plants'),
        align: 'right',
        onHeaderCell: () => nowrap,
        render: (_, a) => formatNumber(a.plants),
      },
      {
        key: 'gateways',
        title: t('agents.gateways'),
        align: 'right',
        onHeaderCell: () => nowrap,
        render: (_, a) => formatNumber(a.gateways),
      },
    );
    if (wide) {
      columns.push({
        key: 'createAt',
        title: t('agents.since'),
        onHeaderCell: () => nowrap,
        onCell: () => nowrap,
        render: (_, a) => (a.createAt ? dayjs(a.createAt).format('YYYY-MM-DD') : MISSING),
      });
    }
  }
  if (mayEdit) {
    columns.push({
      key: 'actions',
      title: phone ? '' : t('company.actions'),
      align: 'right',
      width: phone ? 48 : 80,
      render: (_, a) => (
        <RowActionButtons
          compact={phone}
          menuLabel={t('company.actions')}
          actions={[
            {
              key: 'remove',
              label: t('agents.remove'),
              icon: <DeleteOutlined />,
              danger: true,
              onClick: () => confirmRemove(a),
            },
          ]}
        />
      ),
    });
  }

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="agents-title">
          {t('agents.title')}
        </Typography.Title>
      }
      extra={
        mayEdit && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setAdding(true)}
            data-testid="agent-add"
          >
            {t('agents.add')}
          </Button>
        )
      }
    >
      <Typography.Paragraph type="secondary">
        {t('agents.hint')}{' '}
        <Link to="/shares" data-testid="agents-shares-link">
          {t('consent.agent.manage')}
        </Link>
      </Typography.Paragraph>
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('agents.search')}
          aria-label={t('agents.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(v) => update({ name: v })}
          style={{ width: phone ? '100%' : 280 }}
          data-testid="agent-search"
        />
      </Flex>
      <PagedTable<Agent>
        list={list}
        page={query.page}
        limit={query.limit}
        onPage={setPage}
        columns={columns}
        testId="agents-table"
        errorTestId="agents-error"
        loadFailed={t('agents.loadFailed')}
        empty={filtered ? t('agents.noMatch') : t('agents.empty')}
        emptyAction={
          mayEdit &&
          !filtered && (
            <Button type="primary" onClick={() => setAdding(true)}>
              {t('agents.add')}
            </Button>
          )
        }
        total={(total) => t('company.total', { total })}
        compact={phone}
      />
      {adding && (
        <Suspense fallback={null}>
          <AddAgentDialog onClose={() => setAdding(false)} />
        </Suspense>
      )}
    </Card>
  );
}

/** Company / Agents: other companies whose plants and gateways this company may see. */
export default function AgentsPage() {
  return <ScopeGate>{() => <AgentsView />}</ScopeGate>;
}
