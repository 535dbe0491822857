import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { customerOptionsQuery } from '@/shared/api/pickers';
import { useCan } from '@/shared/permissions';
import { useCurrentUser } from '@/shared/user';
import { programsQuery, userStationsQuery } from '../api';
import { requiredRule } from '@/shared/validators';

/**
 * Step 1: the programme and the plant. Company staff may enroll a customer's plant: they pick
 * the customer first (their own plants by default).
 */
export function ProgramStep({
  editing,
  stationName,
  ownerId,
  onPlant,
}: {
  editing: boolean;
  stationName?: string;
  ownerId: number | undefined;
  onPlant: (stationId: number) => void;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const me = useCurrentUser();
  const staff = useCan('customer.list.view');
  const programs = useQuery(programsQuery());
  const customers = useQuery({ ...customerOptionsQuery, enabled: staff && !editing });
  const stations = useQuery({
    ...userStationsQuery(ownerId ?? 0),
    enabled: ownerId !== undefined && !editing,
  });
  const programId = Form.useWatch('programId', form) as number | undefined;
  const program = programs.data?.find((p) => p.id === programId);

  return (
    <>
      <Form.Item name="programId" label={t('energyHub.program')} rules={[requiredRule()]}>
        <Select
          disabled={editing}
          loading={programs.isPending}
          placeholder={t('energyHub.chooseProgram')}
          options={(programs.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          notFoundContent={programs.isError ? t('energyHub.loadFailed') : t('energyHub.noPrograms')}
          data-testid="hub-enroll-program"
        />
      </Form.Item>
      {program && (
        <Typography.Paragraph type="secondary" data-testid="hub-program-description">
          {[program.longName, program.retailer, program.description].filter(Boolean).join(' · ')}
        </Typography.Paragraph>
      )}
      {staff && !editing && (
        <Form.Item name="userId" label={t('energyHub.plantOwner')}>
          <Select
            showSearch
            optionFilterProp="label"
            loading={customers.isPending}
            onChange={() => form.setFieldsValue({ stationId: undefined, devices: [] })}
            options={[
              ...(me.data ? [{ value: me.data.id, label: t('energyHub.myPlants') }] : []),
              ...(customers.data ?? []).map((c) => ({
                value: c.userId,
                label: c.nickname ? `${c.nickname} (${c.account})` : c.account,
              })),
            ]}
            data-testid="hub-enroll-owner"
          />
        </Form.Item>
      )}
      <Form.Item name="stationId" label={t('energyHub.plant')} rules={[requiredRule()]}>
        <Select
          disabled={editing}
          loading={stations.isFetching}
          placeholder={t('energyHub.choosePlant')}
          showSearch
          optionFilterProp="label"
          onChange={(id: number) => onPlant(id)}
          options={
            editing
              ? [{ value: form.getFieldValue('stationId') as number, label: stationName ?? '' }]
              : (stations.data ?? []).map((s) => ({
                  value: s.id,
                  label: s.enrolled ? `${s.name} · ${t('energyHub.alreadyEnrolled')}` : s.name,
                }))
          }
          notFoundContent={stations.isError ? t('energyHub.loadFailed') : t('energyHub.noPlants')}
          data-testid="hub-enroll-plant"
        />
      </Form.Item>
      {program?.source === 'vtn' && (
        <Alert type="info" showIcon title={t('energyHub.vtnPending')} />
      )}
    </>
  );
}
