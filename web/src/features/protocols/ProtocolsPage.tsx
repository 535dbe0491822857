import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Input, Table, Tag, Typography, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MISSING } from '@/shared/format/number';
import { useCan } from '@/shared/permissions';
import { Problem } from '@/shared/ui/Problem';
import { useMediaQuery, useNarrow } from '@/shared/ui/useNarrow';
import { protocolListQuery, type LoggerFunction } from './api';
import { NewProtocolDialog } from './NewProtocolDialog';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };

/**
 * management/protocol: the protocol configs (register maps) the portal decodes devices with.
 * A code opens its editor; "New" copies a config under a new code (sys.protocol.edit).
 */
export default function ProtocolsPage() {
  const { t } = useTranslation();
  const phone = useNarrow();
  const desktop = useMediaQuery('(min-width: 1200px)');
  const mayEdit = useCan('sys.protocol.edit');
  const list = useQuery(protocolListQuery());
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);

  const rows = useMemo(() => {
    const s = search.trim().toLowerCase();
    const all = list.data ?? [];
    return s
      ? all.filter((r) => r.code.toLowerCase().includes(s) || r.name.toLowerCase().includes(s))
      : all;
  }, [list.data, search]);

  const family = (r: LoggerFunction) =>
    t(`protocols.family.${r.family}`, { defaultValue: r.family });
  const columns: NonNullable<TableProps<LoggerFunction>['columns']> = [
    {
      key: 'code',
      title: t('protocols.code'),
      render: (_, r) => (
        <Flex vertical>
          <Link
            to={`/management/protocol/${encodeURIComponent(r.code)}`}
            data-testid="protocol-row-code"
          >
            <Typography.Text strong>{r.code}</Typography.Text>
          </Link>
          {phone && <Typography.Text type="secondary">{r.name}</Typography.Text>}
          {phone && (
            <span>
              <Tag>{family(r)}</Tag>
              {r.builtin && <Tag color="blue">{t('protocols.builtin')}</Tag>}
            </span>
          )}
        </Flex>
      ),
    },
  ];
  if (!phone) {
    columns.push(
      {
        key: 'family',
        title: t('protocols.familyTitle'),
        onCell: () => nowrap,
        render: (_, r) => <Tag>{family(r)}</Tag>,
      },
      { key: 'name', title: t('protocols.name'), render: (_, r) => r.name },
      {
        key: 'builtin',
        title: t('protocols.origin'),
        onCell: () => nowrap,
        render: (_, r) =>
          r.builtin ? (
            <Tag color="blue">{t('protocols.builtin')}</Tag>
          ) : (
            <Tag>{t('protocols.custom')}</Tag>
          ),
      },
    );
  }
  columns.push({
    key: 'points',
    title: t('protocols.points'),
    align: 'right',
    render: (_, r) => r.points ?? MISSING,
  });
  if (!phone)
    columns.push({
      key: 'version',
      title: t('protocols.version'),
      align: 'right',
      render: (_, r) => r.version ?? MISSING,
    });
  if (desktop)
    columns.push({
      key: 'updateAt',
      title: t('protocols.updated'),
      onCell: () => nowrap,
      render: (_, r) => dayjs(r.updateAt).format('YYYY-MM-DD HH:mm'),
    });

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="protocols-title">
          {t('protocols.title')}
        </Typography.Title>
      }
      extra={
        mayEdit && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setAdding(true)}
            disabled={!list.data?.length}
            data-testid="protocol-new"
          >
            {t('protocols.new')}
          </Button>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('protocols.intro')}</Typography.Paragraph>
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('protocols.search')}
          aria-label={t('protocols.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          style={{ width: phone ? '100%' : 280 }}
          data-testid="protocol-search"
        />
      </Flex>
      {list.isError ? (
        <Problem
          title={t('protocols.loadFailed')}
          testId="protocols-error"
          extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <div style={{ overflowX: 'auto' }}>
          <Table<LoggerFunction>
            rowKey="code"
            data-testid="protocol-table"
            columns={columns}
            dataSource={rows}
            loading={list.isFetching}
            size={phone ? 'small' : 'middle'}
            locale={{
              emptyText: (
                <Empty
                  description={t(search.trim() ? 'protocols.emptyFiltered' : 'protocols.empty')}
                />
              ),
            }}
            pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          />
        </div>
      )}
      {adding && list.data && (
        <NewProtocolDialog configs={list.data} onClose={() => setAdding(false)} />
      )}
    </Card>
  );
}
