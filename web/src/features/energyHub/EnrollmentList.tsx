import { PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Select, Typography, type TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDraft } from '@/shared/hooks/useDraft';
import { ListCard } from '@/shared/list/ListCard';
import { PagedTable } from '@/shared/list/PagedTable';
import { useListQuery } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { useNarrow } from '@/shared/ui/useNarrow';
import { ActionButtons } from './ActionButtons';
import { ENROLLMENT_FILTERS, enrollmentListQuery } from './api';
import { EnrollDrawer } from './EnrollDrawer';
import { EnrollmentDrawer } from './EnrollmentDrawer';
import { EnrollmentStatusTag } from './tags';
import { shortTime } from './time';
import { ENROLLMENT_STATUSES, type Enrollment, type EnrollmentStatus } from './types';
import { OpenLink } from './OpenLink';
import { PlantFilter, ProgramFilter } from './Filters';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };

/** The enrollments the caller may see, with filters, their actions and the enroll form. */
export function EnrollmentList() {
  const { t } = useTranslation();
  const phone = useNarrow();
  const mayEnroll = useCan('energyhub.enroll');
  const { query, list, update, setPage, filtered } = useListQuery(
    ENROLLMENT_FILTERS,
    enrollmentListQuery,
  );
  const [search, setSearch] = useDraft(query.keyword);
  const [openId, setOpenId] = useState<number | null>(null);
  const [enrolling, setEnrolling] = useState(false);

  const name = (e: Enrollment) => (
    <OpenLink onOpen={() => setOpenId(e.id)} testId="hub-enrollment-open">
      {e.stationName}
    </OpenLink>
  );

  const columns: TableProps<Enrollment>['columns'] = phone
    ? [
        {
          key: 'enrollment',
          title: t('energyHub.plant'),
          render: (_, e) => (
            <Flex vertical gap={4} align="flex-start">
              {name(e)}
              <Typography.Text type="secondary">{e.programName}</Typography.Text>
              <EnrollmentStatusTag status={e.status} optedOut={e.optedOut} />
              <ActionButtons enrollment={e} />
            </Flex>
          ),
        },
      ]
    : [
        { key: 'plant', title: t('energyHub.plant'), render: (_, e) => name(e) },
        { key: 'program', title: t('energyHub.program'), render: (_, e) => e.programName },
        {
          key: 'status',
          title: t('energyHub.statusLabel'),
          render: (_, e) => <EnrollmentStatusTag status={e.status} optedOut={e.optedOut} />,
        },
        {
          key: 'account',
          title: t('energyHub.utilityAccount'),
          render: (_, e) => e.utilityAccountNumber,
        },
        {
          key: 'level',
          title: t('energyHub.participation'),
          align: 'right',
          onCell: () => nowrap,
          render: (_, e) => `${e.participationLevel} %`,
        },
        {
          key: 'devices',
          title: t('energyHub.devices'),
          align: 'right',
          render: (_, e) => e.devices.length,
        },
        {
          key: 'updated',
          title: t('energyHub.updatedAt'),
          onCell: () => nowrap,
          render: (_, e) => shortTime(e.updatedAt),
        },
        {
          key: 'actions',
          title: t('energyHub.actions'),
          render: (_, e) => <ActionButtons enrollment={e} />,
        },
      ];

  return (
    <ListCard
      title={t('energyHub.enrollTitle')}
      titleTestId="hub-enroll-title"
      extra={
        mayEnroll && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEnrolling(true)}
            data-testid="hub-enroll-new"
          >
            {t('energyHub.enrollPlant')}
          </Button>
        )
      }
      search={{
        placeholder: t('energyHub.search'),
        value: search,
        onChange: setSearch,
        onSearch: (keyword) => update({ keyword }),
        width: 240,
        testId: 'hub-enroll-search',
      }}
      filters={
        <>
          <ProgramFilter
            value={query.programId}
            onChange={(programId) => update({ programId })}
            width={200}
            testId="hub-filter-program"
          />
          <Select
            aria-label={t('energyHub.statusLabel')}
            placeholder={t('energyHub.allStatuses')}
            allowClear
            value={query.status || undefined}
            onChange={(status?: EnrollmentStatus) => update({ status: status ?? '' })}
            style={{ width: phone ? '100%' : 160 }}
            options={ENROLLMENT_STATUSES.map((s) => ({
              value: s,
              label: t(`energyHub.status.${s}`),
            }))}
            data-testid="hub-filter-status"
          />
          <PlantFilter
            value={query.stationId}
            onChange={(stationId) => update({ stationId })}
            width={200}
            testId="hub-filter-plant"
          />
        </>
      }
    >
      <PagedTable<Enrollment>
        list={list}
        page={query.page}
        limit={query.limit}
        onPage={setPage}
        columns={columns}
        testId="hub-enrollments"
        errorTestId="hub-enrollments-error"
        loadFailed={t('energyHub.loadFailed')}
        empty={filtered ? t('energyHub.noMatch') : t('energyHub.noEnrollments')}
        emptyAction={
          !filtered && mayEnroll ? (
            <Button type="primary" onClick={() => setEnrolling(true)}>
              {t('energyHub.enrollPlant')}
            </Button>
          ) : undefined
        }
        total={(count) => t('energyHub.enrollTotal', { total: count })}
        compact={phone}
      />
      {openId !== null && <EnrollmentDrawer id={openId} onClose={() => setOpenId(null)} />}
      {enrolling && <EnrollDrawer onClose={() => setEnrolling(false)} />}
    </ListCard>
  );
}
