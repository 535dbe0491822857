import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PlantTime } from '@/shared/devices/PlantTime';
import { formatNumber, MISSING } from '@/shared/format/number';
import { formatEnergy, formatPower } from '@/shared/format/units';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { useCurrentUser } from '@/shared/user';
import { deleteInverter, renameInverter, type InverterDetail } from './api';
import { toUserTemp } from './chart';
import { ALIAS_MAX_BYTES, aliasBytes } from './fields';
import { inverterTypeLabelKey } from './typeLabel';
import { ProductField } from './ProductField';
import { inverterKeys } from '@/shared/api/keys';

const show = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? MISSING : String(v);

/** Basic information, with rename and delete for callers whose keys on the plant allow it. */
export function InfoTab({ inv }: { inv: InverterDetail }) {
  const { t } = useTranslation();
  const temp = useCurrentUser().data?.tempUnit ?? 'C';
  const [dialog, setDialog] = useState<'alias' | 'delete' | null>(null);
  const keys = inv.plantPermission ?? [];
  const mayRename = keys.includes('inverter.alias');
  // On a plant the plant's edit key removes its inverters; an unbound one needs inverter.delete.
  const mayDelete = keys.includes(inv.plant ? 'station.edit' : 'inverter.delete');
  const mayPickProduct = keys.includes('inverter.setting');
  const tempText = (c: number | null | undefined) =>
    c === null || c === undefined
      ? MISSING
      : `${formatNumber(toUserTemp(c, temp))} ${temp === 'F' ? '°F' : '°C'}`;

  return (
    <Flex vertical gap={16}>
      <Flex gap={8}>
        {mayRename && (
          <Button icon={<EditOutlined />} onClick={() => setDialog('alias')} data-testid="rename">
            {t('inverters.alias.action')}
          </Button>
        )}
        {mayDelete && (
          <Button
            danger
            icon={<DeleteOutlined />}
            onClick={() => setDialog('delete')}
            data-testid="delete"
          >
            {t('inverters.delete.action')}
          </Button>
        )}
      </Flex>
      <Descriptions size="small" bordered column={{ xs: 1, md: 2 }} data-testid="inverter-info">
        <Descriptions.Item label={t('inverters.column.sn')}>{inv.sn}</Descriptions.Item>
        <Descriptions.Item label={t('inverters.column.alias')}>
          <span data-testid="info-alias">{show(inv.alias)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.column.type')}>
          {t(inverterTypeLabelKey(inv.type))}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.model')}>{show(inv.model)}</Descriptions.Item>
        <Descriptions.Item label={t('inverters.product.field')}>
          <ProductField sn={inv.sn} product={inv} mayEdit={mayPickProduct} />
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.column.plant')}>
          {inv.plant ? (
            <Link to={`/plants/overview/${inv.plant.id}/${inv.plant.type}`}>{inv.plant.name}</Link>
          ) : (
            MISSING
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.column.gateway')}>
          {show(inv.gatewayVO?.gsn)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.column.ratePower')}>
          {inv.ratePower ? formatPower(inv.ratePower) : MISSING}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.protocol')}>
          {show(inv.protocolIdentifier)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.commType')}>
          {show(inv.commTypeName)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.opened')}>
          <span data-testid="info-power" data-on={inv.opened ? 'true' : 'false'}>
            {t(inv.opened ? 'inverters.field.on' : 'inverters.field.off')}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.mpptCount')}>
          {show(inv.mpptCount)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.phaseCount')}>
          {show(inv.phaseCount)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.dcTemp')}>
          {tempText(inv.dcTemp)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.igbtTemp')}>
          {tempText(inv.igbtTemp)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.softVer')}>
          {show(inv.version.softVer)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.hmiVer')}>
          {show(inv.version.hmiVer)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.masterVer')}>
          {show(inv.version.masterVer)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.bmsVer')}>
          {show(inv.version.bmsVer)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.column.etoday')}>
          {formatEnergy(inv.etoday)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.column.etotal')}>
          {formatEnergy(inv.etotal)}
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.column.updateAt')}>
          <PlantTime value={inv.lastSeen} zone={inv.timezone} testId="info-last-data" />
        </Descriptions.Item>
        <Descriptions.Item label={t('inverters.field.timezone')}>{inv.timezone}</Descriptions.Item>
      </Descriptions>
      {dialog === 'alias' && <AliasDialog inv={inv} onClose={() => setDialog(null)} />}
      {dialog === 'delete' && <DeleteDialog inv={inv} onClose={() => setDialog(null)} />}
    </Flex>
  );
}

function AliasDialog({ inv, onClose }: { inv: InverterDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ alias: string }>();
  const save = useMutation({
    mutationFn: (alias: string) => renameInverter(inv.sn, alias.trim()),
    onSuccess: async () => {
      message.success(t('inverters.alias.done'));
      await queryClient.invalidateQueries({ queryKey: inverterKeys.all });
      onClose();
    },
    onError: (e) => {
      if (isApiError(e)) form.setFields([{ name: 'alias', errors: [e.message] }]);
    },
  });
  return (
    <GuardedModal
      open
      title={t('inverters.alias.title', { sn: inv.sn })}
      onCancel={onClose}
      okText={t('common.save')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'alias-submit' }}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ alias: inv.alias }}
        onFinish={(v) => save.mutate(v.alias ?? '')}
      >
        <Form.Item
          name="alias"
          label={t('inverters.column.alias')}
          rules={[
            {
              validator: (_, v: string | undefined) =>
                aliasBytes(v ?? '') <= ALIAS_MAX_BYTES
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('inverters.alias.tooLong'))),
            },
          ]}
        >
          <Input data-testid="alias-input" />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}

function DeleteDialog({ inv, onClose }: { inv: InverterDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const remove = useMutation({
    mutationFn: () => deleteInverter(inv.sn),
    onSuccess: async () => {
      message.success(t('inverters.delete.done'));
      queryClient.removeQueries({ queryKey: inverterKeys.detail(inv.sn) });
      await queryClient.invalidateQueries({ queryKey: inverterKeys.all });
      void navigate('/device/inverter');
    },
  });
  return (
    <GuardedModal
      open
      title={t('inverters.delete.title', { sn: inv.sn })}
      onCancel={onClose}
      okText={t('inverters.delete.action')}
      okButtonProps={{
        danger: true,
        disabled: typed.trim() !== inv.sn,
        loading: remove.isPending,
        'data-testid': 'delete-submit',
      }}
      onOk={() => remove.mutate()}
      destroyOnHidden
    >
      <Typography.Paragraph type="danger">{t('inverters.delete.warning')}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('inverters.delete.confirm', { sn: inv.sn })}>
          <Input
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            data-testid="delete-confirm"
            autoComplete="off"
          />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
