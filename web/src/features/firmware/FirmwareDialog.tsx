import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, AutoComplete, Col, Form, Input, Row, Select, Switch, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
import { Enums } from '@/shared/api/enums.gen';
import { isApiError } from '@/shared/http';
import { useCan } from '@/shared/permissions';
import { GuardedModal } from '@/shared/ui/guarded';
import { formRule, requiredRule } from '@/shared/validators';
import {
  checkFirmware,
  firmwareKeys,
  hardwareQuery,
  inverterTypesQuery,
  productsQuery,
  saveFirmware,
  type FirmwareItem,
  type FirmwareTarget,
} from './api';
import { FilePicker } from './FilePicker';
import {
  firmwareFile,
  firmwareName,
  firmwareRefusal,
  firmwareVersion,
  labelOptions,
} from './rules';

/** The server's limits of a firmware's fields. */
const FORM = Limits.FirmwareForm;

interface Values {
  file?: File;
  name: string;
  version: string;
  typeId?: number;
  productId?: number | null;
  hardwareVersion?: string;
  upgradeMode?: string;
  firmwareType?: string;
  changeLog?: string;
  changeLogEn?: string;
  enabled: boolean;
}

const UPGRADE_MODES = Enums.UpgradeMode;

/**
 * Upload firmware (`item` undefined) or edit one: the file (.bin/.hex checked here first), its
 * name and version (checked with the server on blur: taken, or lower than the latest), for
 * inverters the label it belongs to, the product and hardware version, and both change logs.
 */
export function FirmwareDialog({
  target,
  item,
  typeId,
  onClose,
}: {
  target: FirmwareTarget;
  item?: FirmwareItem;
  /** The label chosen in the tree: a new upload starts filed under it. */
  typeId?: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const inverter = target === 'inverter';
  const mayEnable = useCan(inverter ? 'firmware.enable' : 'firmware.gateway.edit');
  const mayPickProduct = useCan('sys.product.view');
  const tree = useQuery({ ...inverterTypesQuery, enabled: inverter });
  const labels = labelOptions(tree.data ?? []);
  const products = useQuery({ ...productsQuery(target), enabled: mayPickProduct });
  const productId = Form.useWatch('productId', form);
  const hardware = useQuery({
    ...hardwareQuery(productId),
    enabled: mayPickProduct && !!productId,
  });
  const creating = item === undefined;
  const isLabel = (id: number | null | undefined) =>
    labels.some((g) => g.options.some((o) => o.value === id));

  const save = useMutation({
    mutationFn: (v: Values) =>
      saveFirmware(target, {
        ...v,
        id: item?.id,
        productId: mayPickProduct ? (v.productId ?? null) : undefined,
        enabled: v.enabled ?? item?.enabled ?? false,
      }),
    onSuccess: async () => {
      message.success(t(creating ? 'firmware.uploaded' : 'common.saved'));
      await queryClient.invalidateQueries({ queryKey: firmwareKeys.all });
      onClose();
    },
    onError: (e) => {
      const refusal = firmwareRefusal(e);
      if (refusal)
        form.setFields([{ name: refusal.field, errors: [t(refusal.key, refusal.values ?? {})] }]);
      else if (isApiError(e)) message.error(e.message);
    },
  });

  /** The server's check of the name or the version (on blur and on submit). */
  const serverCheck = (field: 'name' | 'version'): FormRule => ({
    validateTrigger: 'onBlur',
    validator: async (_r, value: unknown) => {
      const text = typeof value === 'string' ? value.trim() : '';
      if (!text) return;
      if (field === 'version' && firmwareVersion(text)) return;
      const chosen = form.getFieldValue('typeId') as number | undefined;
      try {
        await checkFirmware(target, {
          [field]: text,
          typeId: field === 'version' ? chosen : undefined,
          id: item?.id,
        });
      } catch (e) {
        const refusal = firmwareRefusal(e);
        if (refusal?.field === field)
          throw new Error(t(refusal.key, refusal.values ?? {}), { cause: e });
      }
    },
  });

  const initial: Values = item
    ? {
        name: item.name,
        version: item.version,
        typeId: item.type || undefined,
        productId: item.productId,
        hardwareVersion: item.hardwareVersion,
        upgradeMode: item.upgradeMode || undefined,
        firmwareType: item.firmwareType,
        changeLog: item.changeLog,
        changeLogEn: item.changeLogEn,
        enabled: item.enabled,
      }
    : {
        name: '',
        version: '',
        typeId: isLabel(typeId) ? (typeId ?? undefined) : undefined,
        upgradeMode: inverter ? 'iap' : undefined,
        enabled: false,
      };
  const half = { xs: 24, sm: 12 };

  return (
    <GuardedModal
      open
      width={720}
      title={t(
        creating
          ? inverter
            ? 'firmware.form.uploadInverter'
            : 'firmware.form.uploadGateway'
          : 'firmware.form.editTitle',
      )}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'firmware-save' }}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={(v) => save.mutate(v)}
        data-testid="firmware-form"
      >
        <Form.Item
          name="file"
          label={t('firmware.form.file')}
          extra={t('firmware.form.fileHelp')}
          rules={[
            ...(creating ? [requiredRule()] : []),
            {
              validator: (_r, file: File | undefined) => {
                const check = file ? firmwareFile(file) : null;
                return check
                  ? Promise.reject(new Error(t(check.key, check.values ?? {})))
                  : Promise.resolve();
              },
            },
          ]}
        >
          <FilePicker current={item?.fileName} />
        </Form.Item>
        <Row gutter={16}>
          <Col {...half}>
            <Form.Item
              name="name"
              label={t('firmware.name')}
              validateTrigger={['onChange', 'onBlur']}
              hasFeedback
              rules={[requiredRule(), formRule(firmwareName), serverCheck('name')]}
            >
              <Input
                maxLength={FORM.name.maxLength}
                autoComplete="off"
                data-testid="firmware-name"
              />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="version"
              label={t('firmware.version')}
              validateTrigger={['onChange', 'onBlur']}
              hasFeedback
              rules={[requiredRule(), formRule(firmwareVersion), serverCheck('version')]}
            >
              <Input
                maxLength={FORM.version.maxLength}
                autoComplete="off"
                data-testid="firmware-version"
              />
            </Form.Item>
          </Col>
          {inverter && (
            <Col {...half}>
              <Form.Item
                name="typeId"
                label={t('firmware.label')}
                rules={[requiredRule()]}
                extra={labels.length === 0 && !tree.isPending ? t('firmware.form.noLabels') : null}
              >
                <Select
                  options={labels}
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={tree.isPending}
                  aria-label={t('firmware.label')}
                  data-testid="firmware-label"
                  onChange={() => {
                    if (form.getFieldValue('version'))
                      void form.validateFields(['version']).catch(() => undefined);
                  }}
                />
              </Form.Item>
            </Col>
          )}
          {inverter && (
            <Col {...half}>
              <Form.Item name="upgradeMode" label={t('firmware.upgradeMode')}>
                <Select
                  aria-label={t('firmware.upgradeMode')}
                  options={UPGRADE_MODES.map((m) => ({
                    value: m,
                    label: t(`firmware.mode.${m}`),
                  }))}
                />
              </Form.Item>
            </Col>
          )}
          {mayPickProduct && (
            <Col {...half}>
              <Form.Item name="productId" label={t('firmware.product')}>
                <Select
                  allowClear
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={products.isPending}
                  aria-label={t('firmware.product')}
                  options={(products.data ?? []).map((p) => ({
                    value: p.id,
                    label: [p.name, p.partNumber].filter(Boolean).join(' · '),
                  }))}
                  onChange={() => form.setFieldValue('hardwareVersion', '')}
                  data-testid="firmware-product"
                />
              </Form.Item>
            </Col>
          )}
          <Col {...half}>
            <Form.Item name="hardwareVersion" label={t('firmware.hardwareVersion')}>
              <AutoComplete
                aria-label={t('firmware.hardwareVersion')}
                options={(hardware.data ?? []).map((h) => ({ value: h.version }))}
                maxLength={FORM.hardwareVersion.maxLength}
              />
            </Form.Item>
          </Col>
          {inverter && (
            <Col {...half}>
              <Form.Item name="firmwareType" label={t('firmware.firmwareType')}>
                <Input maxLength={FORM.firmwareType.maxLength} autoComplete="off" />
              </Form.Item>
            </Col>
          )}
          <Col {...half}>
            <Form.Item name="changeLog" label={t('firmware.changeLogZh')}>
              <Input.TextArea rows={3} maxLength={FORM.changeLog.maxLength} showCount />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="changeLogEn" label={t('firmware.changeLogEn')}>
              <Input.TextArea rows={3} maxLength={FORM.changeLogEn.maxLength} showCount />
            </Form.Item>
          </Col>
          {mayEnable && (
            <Col span={24}>
              <Form.Item name="enabled" valuePropName="checked" label={t('firmware.enabled')}>
                <Switch data-testid="firmware-enabled" />
              </Form.Item>
            </Col>
          )}
        </Row>
      </Form>
    </GuardedModal>
  );
}
