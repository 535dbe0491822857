import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
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
import { useEnergyHubMutation } from './useEnergyHubMutation';

const PROGRAM = Limits.ProgramRequest;

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
        title={t('energyHub.programsTitle')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing('new')}
            data-testid="hub-program-new"
          >
            {t('energyHub.newProgram')}
          </Button>
        }
      >
        {programs.isError ? (
          <Problem
            title={t('energyHub.loadFailed')}
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
              locale={{ emptyText: t('energyHub.noPrograms') }}
              data-testid="hub-programs"
              columns={[
                {
                  key: 'name',
                  title: t('energyHub.program'),
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
                  title: t('energyHub.source'),
                  render: (_, p) =>
                    p.source === 'vtn'
                      ? `${t('energyHub.sources.vtn')} · ${p.vtnName ?? ''}`
                      : t('energyHub.sources.local'),
                },
                ...(phone
                  ? []
                  : [
                      {
                        key: 'retailer',
                        title: t('energyHub.retailer'),
                        render: (_: unknown, p: Program) => p.retailer,
                      },
                    ]),
                {
                  key: 'flags',
                  title: t('energyHub.statusLabel'),
                  render: (_, p) => (
                    <Flex gap={4} wrap>
                      <Tag color={p.active ? 'green' : 'default'}>
                        {t(p.active ? 'energyHub.active' : 'energyHub.inactive')}
                      </Tag>
                      {p.autoAccept && <Tag color="blue">{t('energyHub.autoAccept')}</Tag>}
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
                        aria-label={t('energyHub.editProgram', { name: p.name })}
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
      <Card title={t('energyHub.awaitingDecision')}>
        <PagedTable<Enrollment>
          list={pending}
          page={page.page}
          limit={page.limit}
          onPage={(p, l) => setPage({ page: p, limit: l ?? page.limit })}
          testId="hub-pending"
          errorTestId="hub-pending-error"
          loadFailed={t('energyHub.loadFailed')}
          empty={t('energyHub.noneAwaiting')}
          total={(count) => t('energyHub.enrollTotal', { total: count })}
          compact={phone}
          columns={[
            {
              key: 'plant',
              title: t('energyHub.plant'),
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
                    title: t('energyHub.statusLabel'),
                    render: (_: unknown, e: Enrollment) => (
                      <EnrollmentStatusTag status={e.status} />
                    ),
                  },
                  {
                    key: 'created',
                    title: t('energyHub.createdAt'),
                    render: (_: unknown, e: Enrollment) => shortTime(e.createdAt),
                  },
                  {
                    key: 'decide',
                    title: t('energyHub.actions'),
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
  const save = useEnergyHubMutation(
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
        program ? t('energyHub.editProgram', { name: program.name }) : t('energyHub.newProgram')
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
          label={t('energyHub.programName')}
          rules={[
            requiredRule(),
            formRule((v) => lengthBetween(v, PROGRAM.name.minLength, PROGRAM.name.maxLength)),
          ]}
        >
          <Input maxLength={PROGRAM.name.maxLength} data-testid="hub-program-name" />
        </Form.Item>
        <Form.Item
          name="longName"
          label={t('energyHub.longName')}
          rules={[formRule((v) => maxLength(v, PROGRAM.longName.maxLength))]}
        >
          <Input maxLength={PROGRAM.longName.maxLength} data-keyfilter="off" />
        </Form.Item>
        <Form.Item
          name="retailer"
          label={t('energyHub.retailer')}
          rules={[formRule((v) => maxLength(v, PROGRAM.retailer.maxLength))]}
        >
          <Input maxLength={PROGRAM.retailer.maxLength} data-keyfilter="off" />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('energyHub.description')}
          rules={[formRule((v) => maxLength(v, PROGRAM.description.maxLength))]}
        >
          <Input.TextArea rows={3} maxLength={PROGRAM.description.maxLength} showCount />
        </Form.Item>
        <Flex gap={24} wrap>
          <Form.Item name="autoAccept" label={t('energyHub.autoAccept')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="active" label={t('energyHub.active')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Flex>
      </Form>
    </GuardedModal>
  );
}
