import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Flex, Form, Steps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorCode, isApiError } from '@/shared/http';
import { SubmitButton } from '@/shared/ui/guarded';
import { useNarrow } from '@/shared/ui/useNarrow';
import { useCurrentUser } from '@/shared/user';
import { energyHubKeys, saveEnrollment, stationDevicesQuery, stationZoneQuery } from './api';
import { ContactStep } from './enroll/ContactStep';
import { DevicesStep } from './enroll/DevicesStep';
import { PlaceStep } from './enroll/PlaceStep';
import { ProgramStep } from './enroll/ProgramStep';
import { STEP_FIELDS, type StepKey, STEPS } from './enroll/steps';
import {
  devicesFromPlant,
  enrollmentBody,
  initialValues,
  valuesOf,
  type EnrollValues,
} from './form';
import { type Enrollment } from './types';

/**
 * Enrolls a plant in a programme, in steps (programme and plant, devices, account and contact,
 * addresses and participation), or edits a pending or refused enrollment (`enrollment`), which
 * sends it again.
 */
export function EnrollDrawer({
  enrollment,
  onClose,
}: {
  enrollment?: Enrollment;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const { message } = App.useApp();
  const client = useQueryClient();
  const me = useCurrentUser();
  const [form] = Form.useForm<EnrollValues>();
  const [step, setStep] = useState(0);
  const [saving, setSaving] = useState(false);
  const [loadingPlant, setLoadingPlant] = useState(false);
  const editing = enrollment !== undefined;
  const [initial] = useState<EnrollValues>(() =>
    enrollment ? valuesOf(enrollment) : initialValues(me.data?.id),
  );
  const plantsOwner = Form.useWatch('userId', form) ?? me.data?.id;

  /** A plant chosen: its battery inverters and its time zone fill the later steps. */
  const pickPlant = async (stationId: number) => {
    setLoadingPlant(true);
    try {
      const [devices, zone] = await Promise.all([
        client.fetchQuery(stationDevicesQuery(stationId)),
        client.fetchQuery(stationZoneQuery(stationId)).catch(() => undefined),
      ]);
      form.setFieldsValue({
        devices: devicesFromPlant(devices),
        ...(zone ? { timeZone: zone } : {}),
      });
    } catch {
      form.setFields([{ name: 'stationId', errors: [t('energyHub.devicesFailed')] }]);
    } finally {
      setLoadingPlant(false);
    }
  };

  const next = async () => {
    try {
      await form.validateFields(STEP_FIELDS[STEPS[step] ?? 'program'], { recursive: true });
      setStep(step + 1);
    } catch {
      // the fields show what is wrong
    }
  };

  const submit = async () => {
    let values: EnrollValues;
    try {
      await form.validateFields(STEP_FIELDS[STEPS[step] ?? 'program'], { recursive: true });
      values = form.getFieldsValue(true) as EnrollValues;
    } catch {
      return;
    }
    setSaving(true);
    try {
      await saveEnrollment(enrollmentBody(values, enrollment?.id));
      message.success(t(editing ? 'energyHub.resubmitted' : 'energyHub.enrolled'));
      await client.invalidateQueries({ queryKey: energyHubKeys.all });
      onClose();
    } catch (e) {
      if (isApiError(e, ErrorCode.AccountBound)) {
        setStep(STEPS.indexOf('contact'));
        form.setFields([{ name: 'utilityAccountNumber', errors: [e.message] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  const visible = (key: StepKey) => ({ display: STEPS[step] === key ? undefined : 'none' });
  const last = step === STEPS.length - 1;

  return (
    <Drawer
      open
      onClose={onClose}
      size={phone ? '100%' : 720}
      title={editing ? t('energyHub.editTitle') : t('energyHub.enrollPlant')}
      destroyOnHidden
      data-testid="hub-enroll-drawer"
      footer={
        <Flex justify="space-between" gap={8}>
          <Button onClick={step === 0 ? onClose : () => setStep(step - 1)}>
            {step === 0 ? t('common.cancel') : t('energyHub.back')}
          </Button>
          {last ? (
            <SubmitButton
              type="primary"
              loading={saving}
              onClick={() => void submit()}
              data-testid="hub-enroll-submit"
            >
              {editing ? t('energyHub.resubmit') : t('energyHub.submit')}
            </SubmitButton>
          ) : (
            <Button
              type="primary"
              loading={loadingPlant}
              onClick={() => void next()}
              data-testid="hub-enroll-next"
            >
              {t('energyHub.next')}
            </Button>
          )}
        </Flex>
      }
    >
      <Steps
        current={step}
        size="small"
        orientation={phone ? 'vertical' : 'horizontal'}
        style={{ marginBottom: 24 }}
        items={STEPS.map((key) => ({ key, title: t(`energyHub.steps.${key}`) }))}
      />
      <Form<EnrollValues> form={form} layout="vertical" initialValues={initial} preserve>
        <div style={visible('program')}>
          <ProgramStep
            editing={editing}
            stationName={enrollment?.stationName}
            ownerId={plantsOwner}
            onPlant={(id) => void pickPlant(id)}
          />
        </div>
        <div style={visible('devices')}>
          <DevicesStep loading={loadingPlant} />
        </div>
        <div style={visible('contact')}>
          <ContactStep />
        </div>
        <div style={visible('place')}>
          <PlaceStep />
        </div>
      </Form>
    </Drawer>
  );
}
