import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable } from '@/shared/list/PagedTable';
import { GuardedModal } from '@/shared/ui/guarded';
import { useNarrow } from '@/shared/ui/useNarrow';
import { formRule, lengthBetween, maxLength, requiredRule } from '@/shared/validators';
import { Problem } from '@/shared/ui/Problem';
import { ActionButtons } from './ActionButtons';
import { enrollmentListQuery, programsQuery, saveProgram } from './api';
import { EnrollmentStatusTag } from './tags';
import { shortTime } from './time';
import type { Enrollment, Program, ProgramBody } from './types';
import { useHubMutation } from './useHubMutation';

/** The utility's built-in programmes (create, edit) and the enrollments waiting for its decision. */
export function ProgramsTab() {
  const { t } = useTranslation();
  const phone = useNarrow();
  const programs = useQuery(programsQuery(true));
  const [editing, setEditing] = useState<Program | 'new' | null>(null);
  const [page, setPage] = useState({ page: 1, limit: 10 });
  const pending = useQuery(
    enrollmentListQuery({
      ...page,
      keyword: '',
      programId: null,
      stationId: null,
      status: 'pending',
    }),
  );

  return (
    <Flex vertical gap={16}>
      <Card
        title={t('energyhub.programsTitle')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing('new')}
            data-testid="hub-program-new"
          >
            {t('energyhub.newProgram')}
          </Button>
        }
      >
        {programs.isError ? (
          <Problem
            title={t('energyhub.loadFailed')}
            extra={<Button onClick={() => void programs.refetch()}>{t('common.refresh')}</Button>}
          />
        ) : (
          <div style={{ overflowX: 'auto' }}>
            <Table<Program>
              rowKey="id"
              size={phone ? 'small' : 'middle'}
              loading={programs.isFetching}
              dataSource={programs.data ?? []}
              pagination={false}
              locale={{ emptyText: t('energyhub.noPrograms') }}
              data-testid="hub-programs"
              columns={[
                {
                  key: 'name',
                  title: t('energyhub.program'),
                  render: (_, p) => (
                    <Flex vertical>
                      <span>{p.name}</span>
                      {p.longName && (
                        <Typography.Text type="secondary">{p.longName}</Typography.Text>
                      )}
                    </Flex>
                  ),
                },
                {
                  key: 'source',
                  title: t('energyhub.source'),
                  render: (_, p) =>
                    p.source === 'vtn'
                      ? `${t('energyhub.sources.vtn')} · ${p.vtnName ?? ''}`
                      : t('energyhub.sources.local'),
                },
                ...(phone
                  ? []
                  : [
                      {
                        key: 'retailer',
                        title: t('energyhub.retailer'),
                        render: (_: unknown, p: Program) => p.retailer,
                      },
                    ]),
                {
                  key: 'flags',
                  title: t('energyhub.statusLabel'),
                  render: (_, p) => (
                    <Flex gap={4} wrap>
                      <Tag color={p.active ? 'green' : 'default'}>
                        {t(p.active ? 'energyhub.active' : 'energyhub.inactive')}
                      </Tag>
                      {p.autoAccept && <Tag color="blue">{t('energyhub.autoAccept')}</Tag>}
                    </Flex>
                  ),
                },
                {
                  key: 'edit',
                  title: '',
                  width: 48,
                  render: (_, p) =>
                    p.source === 'local' && (
                      <Button
                        type="text"
                        icon={<EditOutlined />}
                        aria-label={t('energyhub.editProgram', { name: p.name })}
                        onClick={() => setEditing(p)}
                        data-testid="hub-program-edit"
                      />
                    ),
                },
              ]}
            />
          </div>
        )}
      </Card>
      <Card title={t('energyhub.awaitingDecision')}>
        <PagedTable<Enrollment>
          list={pending}
          page={page.page}
          limit={page.limit}
          onPage={(p, l) => setPage({ page: p, limit: l ?? page.limit })}
          testId="hub-pending"
          errorTestId="hub-pending-error"
          loadFailed={t('energyhub.loadFailed')}
          empty={t('energyhub.noneAwaiting')}
          total={(count) => t('energyhub.enrollTotal', { total: count })}
          compact={phone}
          columns={[
            {
              key: 'plant',
              title: t('energyhub.plant'),
              render: (_, e) => (
                <Flex vertical gap={2}>
                  <span>{e.stationName}</span>
                  <Typography.Text type="secondary">
                    {e.programName} · {e.utilityAccountNumber}
                  </Typography.Text>
                  {phone && <ActionButtons enrollment={e} utilityOnly />}
                </Flex>
              ),
            },
            ...(phone
              ? []
              : [
                  {
                    key: 'status',
                    title: t('energyhub.statusLabel'),
                    render: (_: unknown, e: Enrollment) => (
                      <EnrollmentStatusTag status={e.status} />
                    ),
                  },
                  {
                    key: 'created',
                    title: t('energyhub.createdAt'),
                    render: (_: unknown, e: Enrollment) => shortTime(e.createdAt),
                  },
                  {
                    key: 'decide',
                    title: t('energyhub.actions'),
                    render: (_: unknown, e: Enrollment) => (
                      <ActionButtons enrollment={e} utilityOnly />
                    ),
                  },
                ]),
          ]}
        />
      </Card>
      {editing && (
        <ProgramDialog
          program={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Flex>
  );
}

function ProgramDialog({ program, onClose }: { program?: Program; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProgramBody>();
  const save = useHubMutation(
    (v: ProgramBody) =>
      saveProgram({
        ...(program ? { id: program.id } : {}),
        name: v.name.trim(),
        longName: (v.longName ?? '').trim(),
        description: (v.description ?? '').trim(),
        retailer: (v.retailer ?? '').trim(),
        autoAccept: v.autoAccept,
        active: v.active,
      }),
    'common.saved',
    onClose,
  );
  return (
    <GuardedModal
      open
      title={
        program ? t('energyhub.editProgram', { name: program.name }) : t('energyhub.newProgram')
      }
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'hub-program-save' }}
      destroyOnHidden
    >
      <Form<ProgramBody>
        form={form}
        layout="vertical"
        initialValues={
          program ?? {
            name: '',
            longName: '',
            description: '',
            retailer: '',
            autoAccept: false,
            active: true,
          }
        }
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item
          name="name"
          label={t('energyhub.programName')}
          rules={[requiredRule(), formRule((v) => lengthBetween(v, 1, 64))]}
        >
          <Input maxLength={64} data-testid="hub-program-name" />
        </Form.Item>
        <Form.Item
          name="longName"
          label={t('energyhub.longName')}
          rules={[formRule((v) => maxLength(v, 128))]}
        >
          <Input maxLength={128} data-keyfilter="off" />
        </Form.Item>
        <Form.Item
          name="retailer"
          label={t('energyhub.retailer')}
          rules={[formRule((v) => maxLength(v, 64))]}
        >
          <Input maxLength={64} data-keyfilter="off" />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('energyhub.description')}
          rules={[formRule((v) => maxLength(v, 500))]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
        <Flex gap={24} wrap>
          <Form.Item name="autoAccept" label={t('energyhub.autoAccept')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="active" label={t('energyhub.active')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Flex>
      </Form>
    </GuardedModal>
  );
}
