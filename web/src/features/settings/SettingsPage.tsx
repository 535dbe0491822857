import { ArrowLeftOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Flex,
  Form,
  Input,
  Result,
  Select,
  Skeleton,
  Space,
  Switch,
  Table,
  Tabs,
  Typography,
  type FormInstance,
  type FormRule,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { settingKeys } from '@/shared/api/keys';
import type { Command } from '@/shared/commands/api';
import { CommandProgress } from '@/shared/commands/CommandProgress';
import { ErrorCode, isApiError } from '@/shared/http';
import { SubmitButton } from '@/shared/ui/guarded';
import { StatusCode } from '@/shared/ui/status';
import {
  deviceStateQuery,
  readQuery,
  supportQuery,
  writeSettings,
  type Field,
  type Support,
  type Values,
} from './api';
import { Profiles } from './Profiles';
import { toForm, toWire, type FormValues } from './form';
import { BATTERY_LEVELS, check, checkLevels } from './validate';

const SLOTS = [1, 2, 3, 4, 5, 6];
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

function useRule(field: Field) {
  const { t } = useTranslation();
  return {
    validator: (_: unknown, value: string | boolean | undefined) => {
      const problem = check(field, value);
      return problem
        ? Promise.reject(new Error(t(problem.key, problem.values ?? {})))
        : Promise.resolve();
    },
  };
}

/**
 * A battery level's rule against the other levels on the form once one of them was edited
 * (re-checked when they change); none for other fields.
 */
function useLevelRule(key: string): { rules: FormRule[]; dependencies?: string[] } {
  const { t } = useTranslation();
  const levels: readonly string[] = BATTERY_LEVELS;
  if (!levels.includes(key)) return { rules: [] };
  const rule: FormRule = ({ getFieldValue, isFieldsTouched }) => ({
    validator: () => {
      // As the server: only a change of a level is checked, so that an inverter whose levels
      // are already out of order (one reporting zeros) still takes its other settings.
      if (!isFieldsTouched([...levels])) return Promise.resolve();
      const problem = checkLevels(key, getFieldValue);
      if (!problem) return Promise.resolve();
      const other = t(`settings.field.${String(problem.values?.other)}`);
      return Promise.reject(new Error(t(problem.key, { ...problem.values, other })));
    },
  });
  return { rules: [rule], dependencies: levels.filter((k) => k !== key) };
}

function FieldInput({ field }: { field: Field }) {
  const { t } = useTranslation();
  const rule = useRule(field);
  const levels = useLevelRule(field.key);
  const label = (
    <span>
      {t(`settings.field.${field.key}`)}
      {field.unit ? ` (${field.unit})` : ''}
    </span>
  );
  if (field.type === 'bool')
    return (
      <Form.Item name={field.key} label={label} valuePropName="checked" rules={[rule]}>
        <Switch data-testid={`field-${field.key}`} />
      </Form.Item>
    );
  if (field.type === 'choice')
    return (
      <Form.Item name={field.key} label={label} rules={[rule]}>
        <Select
          data-testid={`field-${field.key}`}
          style={{ maxWidth: 320 }}
          options={field.choices.map((c) => ({
            value: c,
            label: t(`settings.choice.${field.key}.${c}`),
          }))}
        />
      </Form.Item>
    );
  const extra =
    field.type === 'number' ? t('settings.range', { min: field.min, max: field.max }) : undefined;
  return (
    <Form.Item
      name={field.key}
      label={label}
      rules={[rule, ...levels.rules]}
      dependencies={levels.dependencies}
      extra={extra}
    >
      <Input style={{ maxWidth: 240 }} data-testid={`field-${field.key}`} />
    </Form.Item>
  );
}

/** A slot's cell: the field of the family for `key`, bare (the column says what it is). */
function SlotCell({ fields, name }: { fields: Map<string, Field>; name: string }) {
  const field = fields.get(name);
  const rule = useRule(
    field ?? {
      key: name,
      group: 'timeOfUse',
      unit: '',
      default: '',
      selectable: false,
      type: 'time',
    },
  );
  if (!field) return null;
  if (field.type === 'bool')
    return (
      <Form.Item name={name} valuePropName="checked" noStyle>
        <Switch size="small" data-testid={`field-${name}`} aria-label={name} />
      </Form.Item>
    );
  return (
    <Form.Item name={name} rules={[rule]} style={{ margin: 0 }}>
      <Input
        size="small"
        style={{ width: 96 }}
        data-testid={`field-${name}`}
        aria-label={name}
        // Times are HH:MM: the colon is what the global special-character filter blocks.
        data-keyfilter={field.type === 'time' ? 'off' : undefined}
      />
    </Form.Item>
  );
}

/** Time of use: six slots (start, power, voltage, SOC, grid and generator charge) and days;
 * a cell or day the inverter does not offer stays empty. */
function TimeOfUse({ fields }: { fields: Map<string, Field> }) {
  const { t } = useTranslation();
  const col = (key: string, title: string, name: (i: number) => string) => ({
    key,
    title,
    render: (_: unknown, i: number) => <SlotCell fields={fields} name={name(i)} />,
  });
  return (
    <Flex vertical gap={16}>
      <Table<number>
        rowKey={(i) => i}
        size="small"
        pagination={false}
        dataSource={SLOTS}
        scroll={{ x: 760 }}
        data-testid="tou-table"
        columns={[
          { key: 'slot', title: t('settings.tou.slot'), render: (_, i) => i },
          col('time', t('settings.tou.time'), (i) => `sellTime${i}`),
          col('power', t('settings.tou.power'), (i) => `sellTime${i}Pac`),
          col('volt', t('settings.tou.volt'), (i) => `sellTime${i}Volt`),
          col('cap', t('settings.tou.cap'), (i) => `cap${i}`),
          col('grid', t('settings.tou.gridCharge'), (i) => `time${i}on`),
          col('gen', t('settings.tou.genCharge'), (i) => `genTime${i}on`),
        ]}
      />
      <Flex gap={16} wrap align="center">
        <Typography.Text strong>{t('settings.tou.days')}</Typography.Text>
        {/* Only the day flags the inverter's map writes. */}
        {DAYS.filter((d) => fields.has(`${d}On`)).map((d) => (
          <Form.Item key={d} name={`${d}On`} valuePropName="checked" noStyle>
            <Checkbox data-testid={`field-${d}On`}>{t(`settings.day.${d}`)}</Checkbox>
          </Form.Item>
        ))}
      </Flex>
    </Flex>
  );
}

/**
 * Said before any editing when the device cannot take settings now: offline (nothing reaches
 * it until it reports again) or upgrading (it takes no settings until the upgrade ends).
 */
function StateBanner({ status }: { status: number | undefined }) {
  const { t } = useTranslation();
  if (status !== StatusCode.offline && status !== StatusCode.upgrading) return null;
  const key = status === StatusCode.offline ? 'offline' : 'upgrading';
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      message={t(`settings.state.${key}`)}
      description={t(`settings.state.${key}Help`)}
      data-testid={`settings-${key}`}
    />
  );
}

function SettingsForm({
  sn,
  support,
  values,
  form,
  blocked,
}: {
  sn: string;
  support: Support;
  values: Values;
  form: FormInstance<FormValues>;
  /** The device is offline or upgrading: nothing can be sent to it now. */
  blocked: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const fields = support.groups.flatMap((g) => g.fields);
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const [commandId, setCommandId] = useState<number | null>(null);
  const write = useMutation({
    mutationFn: (v: FormValues) => writeSettings(sn, toWire(sn, v)),
    onSuccess: (a) => {
      const id = a.commandId ?? null;
      if (id === null) message.info(t('settings.unchanged'));
      setCommandId(id);
    },
    onError: (e) => {
      message.error(isApiError(e) ? e.message : t('settings.sendFailed'));
    },
  });
  const finished = (c: Command) => {
    if (c.status === 'succeeded') {
      message.success(t('settings.applied'));
      void client.invalidateQueries({ queryKey: settingKeys.read(sn) });
    }
  };
  const submit = () =>
    form
      .validateFields()
      .then((v) => write.mutate({ ...form.getFieldsValue(true), ...v }))
      .catch(() => message.error(t('settings.fixErrors')));

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      initialValues={toForm(fields, values)}
      data-testid="settings-form"
    >
      <Profiles sn={sn} form={form} fields={byKey} />
      <Tabs
        items={support.groups.map((g) => ({
          key: g.key,
          label: <span data-testid={`group-${g.key}`}>{t(`settings.group.${g.key}`)}</span>,
          forceRender: true,
          children:
            g.key === 'timeOfUse' ? (
              <TimeOfUse fields={byKey} />
            ) : (
              <Flex vertical>
                {g.fields.map((f) => (
                  <FieldInput key={f.key} field={f} />
                ))}
              </Flex>
            ),
        }))}
      />
      <Flex vertical gap={12} style={{ marginTop: 16 }}>
        <Space>
          <SubmitButton
            type="primary"
            onClick={() => void submit()}
            loading={write.isPending}
            disabled={blocked}
            data-testid="settings-submit"
          >
            {t('settings.submit')}
          </SubmitButton>
          <Button
            onClick={() => {
              form.resetFields();
              setCommandId(null);
            }}
          >
            {t('settings.reset')}
          </Button>
        </Space>
        {commandId !== null && (
          <CommandProgress key={commandId} id={commandId} onFinal={finished} />
        )}
      </Flex>
    </Form>
  );
}

/** Parameter settings of one inverter (`?sn=`), at /device/setting and /plants/device/setting. */
export default function SettingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const sn = (params.get('sn') ?? '').trim();
  const [form] = Form.useForm<FormValues>();
  const support = useQuery(supportQuery(sn));
  const editable = support.data?.editable ?? false;
  const read = useQuery(readQuery(sn, editable));
  const state = useQuery(deviceStateQuery(sn));
  const status = state.data?.status;
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(-1)}>
      {t('settings.back')}
    </Button>
  );

  if (!sn)
    return (
      <Result
        status="info"
        title={t('settings.chooseInverter')}
        extra={
          <Link to="/device/inverter">
            <Button type="primary">{t('settings.toInverters')}</Button>
          </Link>
        }
      />
    );
  if (support.isPending || (editable && read.isPending))
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  const error = support.error ?? read.error;
  if (error) {
    const code = isApiError(error) ? error.code : 0;
    const known = (
      [
        ErrorCode.NoPermission,
        ErrorCode.InverterMissing,
        ErrorCode.BrandNotSupported,
        ErrorCode.NoSettings,
      ] as number[]
    ).includes(code);
    return (
      <Result
        status={
          code === ErrorCode.InverterMissing
            ? '404'
            : code === ErrorCode.NoPermission
              ? '403'
              : 'warning'
        }
        title={known ? t(`settings.refused.${code}`) : t('settings.loadFailed')}
        data-testid="settings-refused"
        extra={
          <Space>
            {back}
            {!known && (
              <Button
                onClick={() => {
                  void support.refetch();
                  void read.refetch();
                }}
              >
                {t('common.refresh')}
              </Button>
            )}
          </Space>
        }
      />
    );
  }
  if (!support.data || !editable || !read.data)
    return (
      <Result
        status="403"
        title={t('settings.refused.2')}
        extra={back}
        data-testid="settings-refused"
      />
    );

  return (
    <Card
      title={
        <Flex gap={12} align="center" wrap>
          {back}
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="settings-title">
            {t('settings.title')}
          </Typography.Title>
          <Link to={`/device/inverter/${encodeURIComponent(sn)}`}>{sn}</Link>
          <Typography.Text type="secondary">
            {t(`settings.family.${support.data.family}`)}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Button
          icon={<ReloadOutlined />}
          loading={read.isFetching}
          onClick={() =>
            void read.refetch().then(
              (r) =>
                r.data &&
                form.setFieldsValue(
                  toForm(
                    support.data.groups.flatMap((g) => g.fields),
                    r.data,
                  ),
                ),
            )
          }
          data-testid="settings-reload"
        >
          {t('settings.readAgain')}
        </Button>
      }
    >
      <StateBanner status={status} />
      <SettingsForm
        sn={sn}
        support={support.data}
        values={read.data}
        form={form}
        blocked={status === StatusCode.offline || status === StatusCode.upgrading}
      />
    </Card>
  );
}
