import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Form, Steps, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorCode, isApiError } from '@/shared/http';
import { currentLanguage } from '@/shared/i18n';
import { SubmitButton } from '@/shared/ui/guarded';
import { useCurrentUser } from '@/shared/user';
import { bindGateway, checkGateway, createPlant, plantDetailQuery, timezonesQuery } from './api';
import {
  BASIC_FIELDS,
  browserTimeZone,
  CONTACT_FIELDS,
  GATEWAY_FIELDS,
  TARIFF_FIELDS,
  LOCATION_FIELDS,
} from './fieldNames';
import { BasicFields, ContactFields, TariffFields, LocationFields, PictureField } from './fields';
import { gatewayInput, showGatewayError } from './gateway';
import { GatewayFields } from './GatewayFields';
import { buildCreateBody, CONSTANT, type WizardValues } from './tariff';
import { plantKeys } from '@/shared/api/keys';

type FormValues = Omit<WizardValues, 'joinDate'> & {
  joinDate?: Dayjs;
  gatewaySn?: string;
  gatewayKey?: string;
};

// The optional gateway step comes last: every required step is done before it, so skipping it
// is just "Create plant" with both fields empty, and the key is checked right before the
// gateway is bound (POST /plant, then POST /plant/{id}/gateway).
const STEPS = [
  { key: 'basic', fields: BASIC_FIELDS },
  { key: 'location', fields: LOCATION_FIELDS },
  { key: 'picture', fields: [] as string[] },
  { key: 'contact', fields: CONTACT_FIELDS },
  { key: 'income', fields: TARIFF_FIELDS },
  { key: 'gateway', fields: GATEWAY_FIELDS },
] as const;
const GATEWAY_STEP = STEPS.length - 1;

/** plant-add: the create wizard (basic, location, picture, contact, income, gateway). */
export default function PlantWizardPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: user } = useCurrentUser();
  const [form] = Form.useForm<FormValues>();
  const [step, setStep] = useState(0);
  const zones = useQuery(timezonesQuery(currentLanguage()));
  const withOwner = user?.type === 'company' || user?.type === 'internal';

  // the browser's zone is the default when the directory knows it
  useEffect(() => {
    const zone = browserTimeZone();
    if (zone && !form.getFieldValue('timezone') && zones.data?.some((z) => z.code === zone)) {
      form.setFieldsValue({ timezone: zone });
    }
  }, [zones.data, form]);

  const create = useMutation({
    mutationFn: async (values: FormValues) => {
      const gateway = gatewayInput(values.gatewaySn, values.gatewayKey);
      // a wrong SN or key is answered at the fields before the plant is created
      if (gateway) await checkGateway(gateway.sn, gateway.key);
      const id = await createPlant(
        buildCreateBody({
          ...values,
          joinDate: (values.joinDate ?? dayjs()).format('YYYY-MM-DD'),
        } as WizardValues),
      );
      let gatewayError: string | null = null;
      if (gateway) {
        try {
          await bindGateway(id, gateway.sn, gateway.key, true);
        } catch (e) {
          gatewayError = e instanceof Error ? e.message : String(e);
        }
      }
      // a plant made for someone who is not yet the company's customer waits for them
      const offer = values.owner?.trim()
        ? ((await queryClient.fetchQuery(plantDetailQuery(id))).offer ?? null)
        : null;
      return { id, gatewayError, offer };
    },
    onSuccess: async ({ id, gatewayError, offer }) => {
      if (offer) message.info(t('plants.offer.sent', { account: offer.account }), 8);
      else if (gatewayError === null) message.success(t('plants.created'));
      else {
        // the plant stays created: say so, and where the gateway can be added later
        modal.confirm({
          title: t('plants.gateway.bindFailedTitle'),
          content: t('plants.gateway.bindFailed', { msg: gatewayError.replace(/[.。]\s*$/, '') }),
          okText: t('plants.gateway.openEdit'),
          cancelText: t('plants.gateway.later'),
          onOk: () => void navigate(`/plants/edit/${id}`),
          okButtonProps: { 'data-testid': 'gateway-open-edit' },
        });
      }
      await queryClient.invalidateQueries({ queryKey: plantKeys.all });
      form.resetFields();
      setStep(0);
      void navigate('/plants', { state: { created: id } });
    },
    onError: (e) => {
      if (showGatewayError(form, e)) {
        setStep(GATEWAY_STEP);
      } else if (isApiError(e, ErrorCode.BadLonLat)) {
        setStep(1);
        form.setFields([{ name: 'lon', errors: [e.message] }]);
      } else if (isApiError(e, ErrorCode.NotRegistered)) {
        setStep(3);
        form.setFields([{ name: 'owner', errors: [e.message] }]);
      }
    },
  });

  const next = async () => {
    try {
      await form.validateFields(STEPS[step]?.fields ?? []);
    } catch {
      return;
    }
    if (step < STEPS.length - 1) setStep(step + 1);
    else create.mutate(form.getFieldsValue(true) as FormValues);
  };

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="wizard-title">
          {t('plants.wizard.title')}
        </Typography.Title>
      }
    >
      <Steps
        current={step}
        items={STEPS.map((s) => ({ key: s.key, title: t(`plants.wizard.${s.key}`) }))}
        style={{ marginBottom: 32 }}
        size="small"
      />
      <Form<FormValues>
        form={form}
        layout="vertical"
        style={{ maxWidth: 720 }}
        initialValues={{ type: 1, valuation: CONSTANT, currency: 1, joinDate: dayjs() }}
        onFinish={() => void next()}
      >
        {step === 0 && <BasicFields />}
        {step === 1 && <LocationFields form={form} />}
        {step === 2 && <PictureField form={form} />}
        {step === 3 && <ContactFields withOwner={withOwner} />}
        {step === 4 && <TariffFields form={form} />}
        {step === GATEWAY_STEP && (
          <>
            <Typography.Paragraph type="secondary" data-testid="gateway-step-hint">
              {t('plants.gateway.stepHint')}
            </Typography.Paragraph>
            <GatewayFields form={form} optional withCheck />
          </>
        )}
        <Flex gap={8} style={{ marginTop: 24 }}>
          <Button onClick={() => void navigate('/plants')}>{t('common.cancel')}</Button>
          {step > 0 && <Button onClick={() => setStep(step - 1)}>{t('plants.wizard.back')}</Button>}
          <SubmitButton
            type="primary"
            htmlType="submit"
            loading={create.isPending}
            data-testid="wizard-next"
          >
            {step < STEPS.length - 1 ? t('plants.wizard.next') : t('plants.wizard.create')}
          </SubmitButton>
        </Flex>
      </Form>
    </Card>
  );
}
