import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Drawer, Flex, Skeleton, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorCode } from '@/shared/http';
import { useCan } from '@/shared/permissions';
import { GuardedPopconfirm } from '@/shared/ui/guarded';
import { useNarrow } from '@/shared/ui/useNarrow';
import { ActionButtons } from './ActionButtons';
import { AddDevicesDialog } from './AddDevicesDialog';
import { enrollmentQuery, removeDevice } from './api';
import { EnrollDrawer } from './EnrollDrawer';
import { devicesEditable, formEditable } from './status';
import { EnrollmentStatusTag } from './tags';
import { shortTime } from './time';
import { type Address, type EnrollmentDevice } from './types';
import { useEnergyHubMutation } from './useEnergyHubMutation';
import { DetailProblem } from './DetailProblem';

function addressText(a: Address): string {
  return [
    a.streetAddress,
    a.extendedAddress,
    `${a.postalCode} ${a.locality}`.trim(),
    a.region,
    a.country,
  ]
    .filter((p) => p && p.trim())
    .join(', ');
}

/** One enrollment: its state and actions, contact and addresses, and its devices. */
export function EnrollmentDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const mayEnroll = useCan('energyhub.enroll');
  const detail = useQuery(enrollmentQuery(id));
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const remove = useEnergyHubMutation(
    (sn: string) => removeDevice(id, sn),
    'energyHub.deviceRemoved',
  );
  const e = detail.data;

  let body;
  if (detail.isPending) body = <Skeleton active />;
  else if (detail.isError || !e)
    body = (
      <DetailProblem
        error={detail.error}
        missingCode={ErrorCode.EnrollmentMissing}
        gone={t('energyHub.enrollmentGone')}
        failed={t('energyHub.loadFailed')}
        testId="hub-enrollment-error"
        onRetry={() => void detail.refetch()}
      />
    );
  else {
    const canChangeDevices = mayEnroll && devicesEditable(e.status);
    body = (
      <Flex vertical gap={16}>
        {e.status === 'rejected' && e.reason && (
          <Alert
            type="error"
            showIcon
            title={t('energyHub.rejectedBecause', { reason: e.reason })}
            data-testid="hub-enrollment-reason"
          />
        )}
        {e.source === 'vtn' && e.status === 'pending' && (
          <Alert type="info" showIcon title={t('energyHub.vtnPending')} />
        )}
        {e.unsupportedReports.length > 0 && (
          <Alert
            type="warning"
            showIcon
            title={t('energyHub.vtnSync.unsupportedReports', {
              types: e.unsupportedReports.join(', '),
            })}
            data-testid="hub-enrollment-unsupported-reports"
          />
        )}
        <Flex gap={8} wrap>
          <ActionButtons enrollment={e} size="middle" />
          {mayEnroll && formEditable(e.status) && (
            <Button
              icon={<EditOutlined />}
              onClick={() => setEditing(true)}
              data-testid="hub-enrollment-edit"
            >
              {t('energyHub.edit')}
            </Button>
          )}
        </Flex>
        <Descriptions
          column={1}
          size="small"
          bordered={!phone}
          items={[
            {
              key: 'status',
              label: t('energyHub.statusLabel'),
              children: <EnrollmentStatusTag status={e.status} optedOut={e.optedOut} />,
            },
            { key: 'program', label: t('energyHub.program'), children: e.programName },
            {
              key: 'source',
              label: t('energyHub.source'),
              children: t(`energyHub.sources.${e.source}`, { defaultValue: e.source }),
            },
            {
              key: 'sourceAccount',
              label: t('energyHub.sourceAccount'),
              children: e.sourceAccountNumber,
            },
            {
              key: 'utilityAccount',
              label: t('energyHub.utilityAccount'),
              children: e.utilityAccountNumber,
            },
            {
              key: 'name',
              label: t('energyHub.contact'),
              children: `${e.firstName} ${e.lastName}`,
            },
            { key: 'email', label: t('energyHub.email'), children: e.email },
            {
              key: 'service',
              label: t('energyHub.serviceAddress'),
              children: addressText(e.serviceAddress),
            },
            {
              key: 'mailing',
              label: t('energyHub.mailingAddress'),
              children: addressText(e.mailingAddress),
            },
            {
              key: 'level',
              label: t('energyHub.participation'),
              children: `${e.participationLevel} %`,
            },
            { key: 'tz', label: t('energyHub.timeZone'), children: e.timeZone },
            { key: 'created', label: t('energyHub.createdAt'), children: shortTime(e.createdAt) },
            { key: 'updated', label: t('energyHub.updatedAt'), children: shortTime(e.updatedAt) },
          ]}
        />
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t('energyHub.devicesTitle', { count: e.devices.length })}
          </Typography.Title>
          {canChangeDevices && (
            <Button
              icon={<PlusOutlined />}
              onClick={() => setAdding(true)}
              data-testid="hub-device-add"
            >
              {t('energyHub.addDevices')}
            </Button>
          )}
        </Flex>
        <div style={{ overflowX: 'auto' }}>
          <Table<EnrollmentDevice>
            size="small"
            rowKey="sn"
            pagination={false}
            dataSource={e.devices}
            data-testid="hub-enrollment-devices"
            columns={[
              {
                key: 'sn',
                title: t('energyHub.sn'),
                render: (_, d) => (
                  <Flex vertical>
                    <span>{d.sn}</span>
                    <Typography.Text type="secondary">
                      {[d.manufacturer, d.model].filter(Boolean).join(' ')}
                    </Typography.Text>
                  </Flex>
                ),
              },
              {
                key: 'capacity',
                title: t('energyHub.capacity'),
                render: (_, d) =>
                  t('energyHub.capacityText', {
                    charge: d.chargeCapacity,
                    discharge: d.dischargeCapacity,
                    storage: d.storageCapacity,
                  }),
              },
              ...(phone
                ? []
                : [
                    {
                      key: 'install',
                      onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' as const } }),
                      onCell: () => ({ style: { whiteSpace: 'nowrap' as const } }),
                      title: t('energyHub.installDate'),
                      render: (_: unknown, d: EnrollmentDevice) => d.installDate,
                    },
                  ]),
              ...(canChangeDevices
                ? [
                    {
                      key: 'remove',
                      title: '',
                      width: 48,
                      render: (_: unknown, d: EnrollmentDevice) => (
                        <GuardedPopconfirm
                          title={t('energyHub.removeDeviceConfirm', { sn: d.sn })}
                          okText={t('energyHub.remove')}
                          cancelText={t('common.cancel')}
                          disabled={e.devices.length <= 1}
                          onConfirm={() => remove.mutateAsync(d.sn)}
                        >
                          <Button
                            type="text"
                            danger
                            icon={<DeleteOutlined />}
                            aria-label={t('energyHub.removeDevice', { sn: d.sn })}
                            title={
                              e.devices.length <= 1
                                ? t('energyHub.lastDevice')
                                : t('energyHub.removeDevice', { sn: d.sn })
                            }
                            disabled={e.devices.length <= 1}
                            data-testid="hub-device-remove"
                          />
                        </GuardedPopconfirm>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </div>
      </Flex>
    );
  }

  return (
    <Drawer
      open
      onClose={onClose}
      size={phone ? '100%' : 640}
      title={e ? `${e.stationName} · ${e.programName}` : t('energyHub.enrollment')}
      data-testid="hub-enrollment-drawer"
    >
      {body}
      {editing && e && <EnrollDrawer enrollment={e} onClose={() => setEditing(false)} />}
      {adding && e && <AddDevicesDialog enrollment={e} onClose={() => setAdding(false)} />}
    </Drawer>
  );
}
