import { useQuery } from '@tanstack/react-query';
import { Checkbox, Empty, Flex, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Problem } from '@/shared/ui/Problem';
import { GuardedModal } from '@/shared/ui/guarded';
import { addDevices, stationDevicesQuery } from './api';
import { deviceBody, devicesFromPlant, MAX_DEVICES } from './form';
import type { Enrollment } from './types';
import { useEnergyHubMutation } from './useEnergyHubMutation';

/** Adds more of the plant's battery inverters to an enrollment (as the portal knows them). */
export function AddDevicesDialog({
  enrollment,
  onClose,
}: {
  enrollment: Enrollment;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const devices = useQuery(stationDevicesQuery(enrollment.stationId));
  const [chosen, setChosen] = useState<string[]>([]);
  const taken = new Set(enrollment.devices.map((d) => d.sn));
  const free = devicesFromPlant(devices.data ?? []).filter((d) => !taken.has(d.sn));
  const room = MAX_DEVICES - enrollment.devices.length;
  const add = useEnergyHubMutation(
    () => addDevices(enrollment.id, free.filter((d) => chosen.includes(d.sn)).map(deviceBody)),
    'energyHub.devicesAdded',
    onClose,
  );

  return (
    <GuardedModal
      open
      title={t('energyHub.addDevices')}
      okText={t('energyHub.add')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: chosen.length === 0 || chosen.length > room }}
      confirmLoading={add.isPending}
      onOk={() => add.mutate(undefined)}
      onCancel={onClose}
      destroyOnHidden
    >
      {devices.isPending ? (
        <Skeleton active />
      ) : devices.isError ? (
        <Problem title={t('energyHub.devicesFailed')} />
      ) : free.length === 0 ? (
        <Empty description={t('energyHub.noFreeDevices')} />
      ) : (
        <Flex vertical gap={8}>
          <Typography.Text type="secondary">
            {t('energyHub.maxDevices', { max: room })}
          </Typography.Text>
          <Checkbox.Group value={chosen} onChange={(v) => setChosen(v as string[])}>
            <Flex vertical gap={6}>
              {free.map((d) => (
                <Checkbox key={d.sn} value={d.sn} data-testid="hub-device-choice">
                  {d.sn} · {[d.manufacturer, d.model].filter(Boolean).join(' ')}
                </Checkbox>
              ))}
            </Flex>
          </Checkbox.Group>
        </Flex>
      )}
    </GuardedModal>
  );
}
