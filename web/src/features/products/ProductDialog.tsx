import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { useCan } from '@/shared/permissions';
import { GuardedModal } from '@/shared/ui/guarded';
import { formRule, requiredRule } from '@/shared/validators';
import {
  addProduct,
  CATEGORIES,
  editProduct,
  inverterLabelsQuery,
  productBody,
  productKeys,
  productRefusal,
  type Product,
  type ProductBody,
} from './api';
import { partNumberCheckRule } from './checks';
import { HardwareTags } from './HardwareTags';
import { LIMITS, partNumber, productName, RATED_POWER_MAX, upTo } from './rules';

const EMPTY: ProductBody = {
  name: '',
  partNumber: '',
  category: 'inverter',
  manufacturer: '',
  typeId: null,
  ratedPower: null,
  remark: '',
  hardware: [],
};

function initial(product?: Product): ProductBody {
  if (!product) return EMPTY;
  return {
    name: product.name,
    partNumber: product.partNumber,
    category: product.category,
    manufacturer: product.manufacturer,
    typeId: product.typeId,
    ratedPower: product.ratedPower,
    remark: product.remark,
    hardware: product.hardware.map((h) => h.version),
  };
}

/** Add a product (`product` undefined) or edit one, with its hardware versions. */
export function ProductDialog({ product, onClose }: { product?: Product; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ProductBody>();
  const creating = product === undefined;
  const start = initial(product);
  const category = Form.useWatch('category', form) ?? start.category;
  const mayReadLabels = useCan('firmware.inverter.view');
  const labels = useQuery({
    ...inverterLabelsQuery(),
    enabled: mayReadLabels && category === 'inverter',
  });

  const save = useMutation({
    // fields the form does not show (a label the caller cannot read) keep their value
    mutationFn: (v: ProductBody): Promise<unknown> => {
      const body = productBody({ ...start, ...v });
      return creating ? addProduct(body) : editProduct(product.id, body);
    },
    onSuccess: async () => {
      message.success(t(creating ? 'products.added' : 'common.saved'));
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
      onClose();
    },
    onError: (e) => {
      const refusal = productRefusal(e);
      if (refusal) form.setFields([{ name: refusal.field, errors: [t(refusal.key)] }]);
      else if (isApiError(e)) message.error(e.message);
    },
  });

  const half = { xs: 24, sm: 12 };

  return (
    <GuardedModal
      open
      width={680}
      title={t(creating ? 'products.addTitle' : 'products.editTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'product-save' }}
      destroyOnHidden
    >
      <Form<ProductBody>
        form={form}
        layout="vertical"
        initialValues={start}
        onFinish={(v) => save.mutate(v)}
        data-testid="product-form"
      >
        <Row gutter={16}>
          <Col {...half}>
            <Form.Item
              name="name"
              label={t('products.name')}
              rules={[requiredRule(), formRule(productName)]}
            >
              <Input maxLength={LIMITS.name} autoComplete="off" data-testid="product-name" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="partNumber"
              label={t('products.partNumber')}
              validateTrigger={['onChange', 'onBlur']}
              hasFeedback
              rules={[requiredRule(), formRule(partNumber), partNumberCheckRule(t, product?.id)]}
            >
              <Input
                maxLength={LIMITS.partNumber}
                autoComplete="off"
                data-keyfilter="off"
                data-testid="product-part-number"
              />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="category" label={t('products.category')} rules={[requiredRule()]}>
              <Select
                data-testid="product-category"
                options={CATEGORIES.map((c) => ({
                  value: c,
                  label: t(`products.categories.${c}`),
                }))}
              />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="manufacturer"
              label={t('products.manufacturer')}
              rules={[formRule(upTo(LIMITS.manufacturer))]}
            >
              <Input
                maxLength={LIMITS.manufacturer}
                autoComplete="off"
                data-testid="product-manufacturer"
              />
            </Form.Item>
          </Col>
          {category === 'inverter' && mayReadLabels && (
            <Col {...half}>
              <Form.Item name="typeId" label={t('products.label')} extra={t('products.labelHint')}>
                <Select
                  allowClear
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={labels.isLoading}
                  options={labels.data ?? []}
                  placeholder={t('products.labelNone')}
                  data-testid="product-label"
                />
              </Form.Item>
            </Col>
          )}
          <Col {...half}>
            <Form.Item name="ratedPower" label={t('products.ratedPowerW')}>
              <InputNumber
                min={0}
                max={RATED_POWER_MAX}
                precision={0}
                style={{ width: '100%' }}
                data-testid="product-rated-power"
              />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="hardware" label={t('products.hardware')}>
              <HardwareTags />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="remark"
              label={t('products.remark')}
              rules={[formRule(upTo(LIMITS.remark))]}
            >
              <Input.TextArea rows={2} maxLength={LIMITS.remark} showCount />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </GuardedModal>
  );
}
