import { DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Flex,
  Input,
  List,
  Result,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { MISSING } from '@/shared/format/number';
import { useCan } from '@/shared/permissions';
import {
  deleteManual,
  downloadManual,
  LANGUAGES,
  manualKeys,
  manualListQuery,
  sizeText,
  type Manual,
  type ManualQuery,
} from './api';
import { ManualDialog } from './ManualDialog';
import { GuardedPopconfirm } from '@/shared/ui/guarded';

/**
 * equip/manuals: administrators (`sys.manual.edit`) manage every manual in a table; everyone
 * else sees the manuals of the models they have a device of, as cards, and downloads them.
 */
export default function ManualsPage() {
  const { t } = useTranslation();
  const manages = useCan('sys.manual.edit');
  const [query, setQuery] = useState<ManualQuery>({
    page: 1,
    limit: 20,
    keyword: '',
    language: '',
  });
  const list = useQuery(manualListQuery(query));
  const [editing, setEditing] = useState<Manual | 'new' | null>(null);
  const filtered = query.keyword.trim() !== '' || query.language !== '';
  const empty = (
    <Empty
      description={
        filtered
          ? t('manuals.emptyFiltered')
          : manages
            ? t('manuals.emptyAdmin')
            : t('manuals.empty')
      }
    />
  );
  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('manuals.title')}
          </Typography.Title>
        }
        extra={
          manages && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="manual-add"
            >
              {t('manuals.add')}
            </Button>
          )
        }
      >
        <Typography.Paragraph type="secondary">
          {manages ? t('manuals.introAdmin') : t('manuals.intro')}
        </Typography.Paragraph>
        <Space wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            aria-label={t('manuals.search')}
            placeholder={t('manuals.search')}
            onSearch={(keyword) => setQuery({ ...query, keyword, page: 1 })}
            style={{ width: 240, maxWidth: '100%' }}
          />
          <Select
            aria-label={t('manuals.field.language')}
            value={query.language}
            style={{ width: 160 }}
            onChange={(language) => setQuery({ ...query, language, page: 1 })}
            options={[
              { value: '', label: t('manuals.anyLanguage') },
              ...LANGUAGES.map((l) => ({ value: l, label: t(`manuals.language.${l}`) })),
            ]}
          />
        </Space>
        {list.isError ? (
          <Result
            status="warning"
            title={t('manuals.loadFailed')}
            extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
          />
        ) : manages ? (
          <AdminTable
            rows={list.data?.infos ?? []}
            loading={list.isFetching}
            total={list.data?.total ?? 0}
            query={query}
            onPage={(page, limit) => setQuery({ ...query, page, limit })}
            onEdit={setEditing}
            empty={empty}
          />
        ) : (
          <List<Manual>
            data-testid="manual-list"
            loading={list.isFetching}
            dataSource={list.data?.infos ?? []}
            locale={{ emptyText: empty }}
            grid={{ gutter: 16, xs: 1, sm: 1, md: 2, lg: 3 }}
            pagination={
              (list.data?.total ?? 0) > query.limit && {
                current: query.page,
                pageSize: query.limit,
                total: list.data?.total ?? 0,
                onChange: (page) => setQuery({ ...query, page }),
              }
            }
            renderItem={(m) => (
              <List.Item>
                <ManualCard manual={m} />
              </List.Item>
            )}
          />
        )}
      </Card>
      {editing && (
        <ManualDialog
          manual={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Flex>
  );
}

function useDownload() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (m: Manual) =>
    downloadManual(m).catch((e: unknown) =>
      message.error(isApiError(e) ? e.message : t('manuals.downloadFailed')),
    );
}

function ManualCard({ manual: m }: { manual: Manual }) {
  const { t } = useTranslation();
  const download = useDownload();
  return (
    <Card size="small" data-testid="manual-card" title={m.title}>
      <Typography.Paragraph style={{ marginBottom: 8 }}>
        {m.productName} <Typography.Text type="secondary">({m.partNumber})</Typography.Text>
      </Typography.Paragraph>
      <Space wrap size={4} style={{ marginBottom: 12 }}>
        <Tag>{t(`manuals.language.${m.language}`)}</Tag>
        {m.version && <Tag>{m.version}</Tag>}
        {m.issued && <Tag>{m.issued}</Tag>}
        <Typography.Text type="secondary">{sizeText(m.size)}</Typography.Text>
      </Space>
      <div>
        <Button icon={<DownloadOutlined />} onClick={() => void download(m)}>
          {t('manuals.download')}
        </Button>
      </div>
    </Card>
  );
}

function AdminTable({
  rows,
  loading,
  total,
  query,
  onPage,
  onEdit,
  empty,
}: {
  rows: Manual[];
  loading: boolean;
  total: number;
  query: ManualQuery;
  onPage: (page: number, limit: number) => void;
  onEdit: (m: Manual) => void;
  empty: React.ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const download = useDownload();
  const remove = useMutation({
    mutationFn: deleteManual,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: manualKeys.all });
      void message.success(t('manuals.deleted'));
    },
  });
  const columns: TableColumnsType<Manual> = [
    {
      key: 'product',
      title: t('manuals.field.product'),
      render: (_, m) => (
        <>
          {m.productName}
          <br />
          <Typography.Text type="secondary">{m.partNumber}</Typography.Text>
        </>
      ),
    },
    { key: 'title', dataIndex: 'title', title: t('manuals.field.title') },
    {
      key: 'language',
      title: t('manuals.field.language'),
      width: 110,
      render: (_, m) => t(`manuals.language.${m.language}`),
    },
    {
      key: 'version',
      title: t('manuals.field.version'),
      width: 100,
      render: (_, m) => m.version || MISSING,
    },
    {
      key: 'issued',
      title: t('manuals.field.issued'),
      width: 120,
      render: (_, m) => m.issued || MISSING,
    },
    {
      key: 'file',
      title: t('manuals.field.file'),
      render: (_, m) => (
        <Button type="link" style={{ padding: 0 }} onClick={() => void download(m)}>
          {m.fileName} ({sizeText(m.size)})
        </Button>
      ),
    },
    {
      key: 'actions',
      title: t('manuals.actions'),
      width: 120,
      fixed: 'right',
      render: (_, m) => (
        <Space>
          <Button
            size="small"
            icon={<EditOutlined />}
            aria-label={t('manuals.edit')}
            onClick={() => onEdit(m)}
          />
          <GuardedPopconfirm
            title={t('manuals.deleteConfirm', { title: m.title })}
            okText={t('common.confirm')}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutate(m.id)}
          >
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('manuals.delete')}
            />
          </GuardedPopconfirm>
        </Space>
      ),
    },
  ];
  return (
    <Table<Manual>
      rowKey="id"
      size="middle"
      data-testid="manual-table"
      loading={loading}
      columns={columns}
      dataSource={rows}
      scroll={{ x: 1000 }}
      locale={{ emptyText: empty }}
      pagination={{
        current: query.page,
        pageSize: query.limit,
        total,
        onChange: onPage,
      }}
    />
  );
}
