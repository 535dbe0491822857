import { ArrowLeftOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Card, Flex, Form, Result, Skeleton, Typography } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorCode, isApiError } from '@/shared/http';
import { SubmitButton } from '@/shared/ui/guarded';
import {
  plantDetailQuery,
  saveContacts,
  saveTariff,
  saveInfo,
  withdrawOffer,
  type PlantBody,
  type PlantDetail,
} from './api';
import { PlantGateways } from './PlantGateways';
import { BasicFields, ContactFields, TariffFields, LocationFields, PictureField } from './fields';
import { buildTariff, tariffFromRows, investValue, type TariffForm } from './tariff';
import { plantKeys } from '@/shared/api/keys';

type Values = Record<string, unknown>;

/** A plant made for another account waits for it to accept; its maker may withdraw. */
function OfferNotice({
  plantId,
  offer,
  onChange,
}: {
  plantId: number;
  offer: NonNullable<PlantDetail['offer']>;
  onChange: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const withdraw = useMutation({
    mutationFn: () => withdrawOffer(plantId),
    onSuccess: onChange,
  });
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="offer-notice"
      title={t('plants.offer.pendingFor', {
        account: offer.account,
        when: dayjs(offer.offeredAt).format('YYYY-MM-DD HH:mm'),
      })}
      description={t('plants.offer.pendingHelp')}
      action={
        <SubmitButton size="small" loading={withdraw.isPending} onClick={() => withdraw.mutate()}>
          {t('plants.offer.withdraw')}
        </SubmitButton>
      }
    />
  );
}

function Section({
  title,
  testId,
  initialValues,
  onSave,
  children,
}: {
  title: string;
  testId: string;
  initialValues: Values;
  onSave: (values: Values) => Promise<unknown>;
  children: (form: ReturnType<typeof Form.useForm<Values>>[0]) => ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const save = useMutation({
    mutationFn: onSave,
    onSuccess: () => message.success(t('common.saved')),
    onError: (e) => {
      if (isApiError(e, ErrorCode.BadLonLat))
        form.setFields([{ name: 'lon', errors: [e.message] }]);
    },
  });
  return (
    <Card title={title} data-testid={testId}>
      <Form
        form={form}
        layout="vertical"
        initialValues={initialValues}
        style={{ maxWidth: 720 }}
        onFinish={() => save.mutate(form.getFieldsValue(true) as Values)}
      >
        {children(form)}
        <SubmitButton
          type="primary"
          htmlType="submit"
          loading={save.isPending}
          data-testid={`${testId}-save`}
        >
          {t('common.save')}
        </SubmitButton>
      </Form>
    </Card>
  );
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
/** An optional number of the form: a number, or null to clear it (left empty). */
const clearable = (v: unknown): number | null =>
  v === null || v === undefined || String(v).trim() === '' ? null : Number(v);
/** A form value as the text the server reads (an id goes as its digits); none when unset. */
const optional = (v: unknown): string | undefined =>
  v === null || v === undefined ? undefined : String(v);

/** plants/edit/:id: each section saved with its own endpoint. */
export default function PlantEditPage() {
  const { t } = useTranslation();
  const { id: idParam } = useParams();
  const id = Number(idParam);
  const queryClient = useQueryClient();
  const plant = useQuery({ ...plantDetailQuery(id), enabled: Number.isInteger(id) && id > 0 });

  const back = (
    <Link to="/plants">
      <ArrowLeftOutlined /> {t('plants.backToList')}
    </Link>
  );
  if (
    !Number.isInteger(id) ||
    id <= 0 ||
    (plant.isError && isApiError(plant.error, ErrorCode.PlantMissing))
  ) {
    return (
      <Result
        status="404"
        title={t('plants.notFound')}
        extra={back}
        data-testid="plant-not-found"
      />
    );
  }
  if (plant.isError) return <Result status="warning" title={t('plants.loadFailed')} extra={back} />;
  if (!plant.data) return <Skeleton active />;
  const p: PlantDetail = plant.data;
  if (!p.plantPermission.includes('station.edit')) {
    return <Result status="403" title={t('plants.noEdit')} extra={back} />;
  }

  const refresh = () => queryClient.invalidateQueries({ queryKey: plantKeys.all });
  const info = (v: Values): PlantBody => ({
    name: str(v.name).trim(),
    type: typeof v.type === 'number' ? v.type : undefined,
    totalPower: Number(v.totalPower),
    joinDate: dayjs.isDayjs(v.joinDate) ? v.joinDate.format('YYYY-MM-DD') : optional(v.joinDate),
    timezone: optional(v.timezone),
    address: str(v.address).trim(),
    lon: Number(v.lon),
    lat: Number(v.lat),
    tilt: clearable(v.tilt),
    azimuth: clearable(v.azimuth),
    imageUrl: str(v.imageUrl),
    thumbUrl: str(v.thumbUrl),
  });
  const basicValues = {
    name: p.name,
    totalPower: str(p.totalPower),
    joinDate: p.joinDate ? dayjs(p.joinDate) : undefined,
    type: p.type,
    timezone: p.timezone?.code,
    address: p.address ?? '',
    lon: str(p.lon),
    lat: str(p.lat),
    tilt: str(p.tilt),
    azimuth: str(p.azimuth),
    imageUrl: p.imageUrl ?? '',
    thumbUrl: p.thumbUrl ?? '',
  };
  const saveBasic = async (v: Values) => {
    await saveInfo(id, info({ ...basicValues, ...v }));
    await refresh();
  };
  const tariff = tariffFromRows(p.charges, p.valuation);

  return (
    <Flex vertical gap={16}>
      <Flex align="center" gap={12}>
        {back}
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="edit-title">
          {t('plants.edit.title', { name: p.name })}
        </Typography.Title>
      </Flex>
      {p.offer && <OfferNotice plantId={id} offer={p.offer} onChange={refresh} />}
      <Section
        title={t('plants.wizard.basic')}
        testId="section-basic"
        initialValues={basicValues}
        onSave={saveBasic}
      >
        {() => <BasicFields />}
      </Section>
      <Section
        title={t('plants.wizard.location')}
        testId="section-location"
        initialValues={basicValues}
        onSave={saveBasic}
      >
        {(form) => <LocationFields form={form} />}
      </Section>
      <Section
        title={t('plants.wizard.picture')}
        testId="section-picture"
        initialValues={basicValues}
        onSave={saveBasic}
      >
        {(form) => <PictureField form={form} />}
      </Section>
      <Section
        title={t('plants.wizard.contact')}
        testId="section-contact"
        initialValues={{
          principal: p.principal ?? '',
          phone: p.phone ?? '',
          email: p.email ?? '',
          installer: p.installer ?? '',
        }}
        onSave={async (v) => {
          await saveContacts(id, {
            principal: str(v.principal).trim(),
            phone: str(v.phone).trim(),
            email: str(v.email).trim(),
            installer: str(v.installer).trim(),
          });
          await refresh();
        }}
      >
        {() => <ContactFields withOwner={false} />}
      </Section>
      <Section
        title={t('plants.wizard.income')}
        testId="section-income"
        initialValues={{ ...tariff, currency: p.currency?.id, invest: str(p.invest) }}
        onSave={async (v) => {
          // the plant is the path's: PlantRequest has no `id`, the server never read one here
          await saveTariff(id, {
            currency: optional(v.currency),
            invest: investValue(v.invest) ?? 0,
            charges: buildTariff(v as unknown as TariffForm),
          });
          await refresh();
        }}
      >
        {(form) => <TariffFields form={form} />}
      </Section>
      <PlantGateways plantId={id} plantPermission={p.plantPermission} />
    </Flex>
  );
}
