import { useQuery } from '@tanstack/react-query';
import { DatePicker, Form, Input, InputNumber, Radio, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
import { GuardedModal } from '@/shared/ui/guarded';
import { formRule, lengthBetween, requiredRule } from '@/shared/validators';
import { createEvent, programsQuery } from './api';
import { eventBody, initialEvent, startOk, type EventValues } from './form';
import { EVENT_KINDS } from './types';
import { useEnergyHubMutation } from './useEnergyHubMutation';

const EVENT = Limits.EventRequest;

/** The utility calls an event in one of its built-in programmes. */
export function NewEventDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EventValues>();
  const programs = useQuery(programsQuery(true));
  const [initial] = useState(() => initialEvent());
  const builtIn = (programs.data ?? []).filter((p) => p.source === 'local' && p.active);
  const create = useEnergyHubMutation(
    (v: EventValues) => createEvent(eventBody(v)),
    'energyHub.eventCreated',
    onClose,
  );
  const only = builtIn.length === 1 ? builtIn[0]?.id : undefined;
  useEffect(() => {
    // one built-in programme: it is the one (the list arrives after the form is shown)
    if (only !== undefined && form.getFieldValue('programId') === undefined)
      form.setFieldValue('programId', only);
  }, [only, form]);
  const range = ({ minimum: min, maximum: max }: { minimum: number; maximum: number }) => ({
    type: 'number' as const,
    min,
    max,
    message: t('validation.range', { min, max }),
  });

  return (
    <GuardedModal
      open
      title={t('energyHub.newEvent')}
      okText={t('energyHub.create')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={create.isPending}
      okButtonProps={{ 'data-testid': 'hub-event-save' }}
      destroyOnHidden
    >
      <Form<EventValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={(v) => create.mutate(v)}
      >
        <Form.Item name="programId" label={t('energyHub.program')} rules={[requiredRule()]}>
          <Select
            loading={programs.isPending}
            options={builtIn.map((p) => ({ value: p.id, label: p.name }))}
            notFoundContent={t('energyHub.noPrograms')}
            data-testid="hub-event-program"
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('energyHub.eventName')}
          rules={[
            requiredRule(),
            formRule((v) => lengthBetween(v, EVENT.name.minLength, EVENT.name.maxLength)),
          ]}
        >
          <Input maxLength={EVENT.name.maxLength} data-testid="hub-event-name" />
        </Form.Item>
        <Form.Item
          name="start"
          label={t('energyHub.start')}
          rules={[
            requiredRule(),
            {
              validator: (_, v: Dayjs | null) =>
                startOk(v)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('energyHub.startPast'))),
            },
          ]}
        >
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Form.Item
          name="durationMinutes"
          label={t('energyHub.durationMinutes')}
          rules={[requiredRule(), range(EVENT.durationMinutes)]}
        >
          <InputNumber
            min={EVENT.durationMinutes.minimum}
            max={EVENT.durationMinutes.maximum}
            precision={0}
            style={{ width: '100%' }}
            data-testid="hub-event-duration"
          />
        </Form.Item>
        <Form.Item name="kind" label={t('energyHub.kind')} rules={[requiredRule()]}>
          <Radio.Group
            options={EVENT_KINDS.map((k) => ({ value: k, label: t(`energyHub.kinds.${k}`) }))}
            optionType="button"
          />
        </Form.Item>
        <Form.Item
          name="targetKw"
          label={t('energyHub.targetKw')}
          rules={[requiredRule(), range(EVENT.targetKw)]}
        >
          <InputNumber
            min={EVENT.targetKw.minimum}
            max={EVENT.targetKw.maximum}
            step={0.5}
            style={{ width: '100%' }}
            data-testid="hub-event-target"
          />
        </Form.Item>
        <Form.Item
          name="priority"
          label={t('energyHub.priority')}
          tooltip={t('energyHub.priorityHelp')}
          rules={[requiredRule(), range(EVENT.priority)]}
        >
          <InputNumber
            min={EVENT.priority.minimum}
            max={EVENT.priority.maximum}
            precision={0}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
