import { EditOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Form, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inverterKeys } from '@/shared/api/keys';
import { MISSING } from '@/shared/format/number';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { inverterProductsQuery, productLabel, setInverterProduct, type ProductOf } from './product';

/**
 * The inverter's product (from the catalogue), with a way to pick it for callers with
 * inverter.setting on the inverter.
 */
export function ProductField({
  sn,
  product,
  mayEdit,
}: {
  sn: string;
  product: ProductOf;
  mayEdit: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Flex gap={4} align="center" wrap>
      <span data-testid="info-product">{product.productName || MISSING}</span>
      {mayEdit && (
        <Button
          type="link"
          size="small"
          icon={<EditOutlined />}
          aria-label={t('inverters.product.pick')}
          onClick={() => setOpen(true)}
          data-testid="product-pick"
        />
      )}
      {open && (
        <ProductDialog sn={sn} current={product.productId ?? null} onClose={() => setOpen(false)} />
      )}
    </Flex>
  );
}

function ProductDialog({
  sn,
  current,
  onClose,
}: {
  sn: string;
  current: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const products = useQuery(inverterProductsQuery());
  const [picked, setPicked] = useState<number | null>(current);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => setInverterProduct(sn, picked),
    onSuccess: async () => {
      message.success(t('common.saved'));
      await queryClient.invalidateQueries({ queryKey: inverterKeys.detail(sn) });
      onClose();
    },
    onError: (e) => {
      if (isApiError(e)) setError(t('inverters.product.refused'));
    },
  });
  return (
    <GuardedModal
      open
      title={t('inverters.product.title', { sn })}
      onCancel={onClose}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'product-pick-save' }}
      onOk={() => save.mutate()}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item
          label={t('inverters.product.label')}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
        >
          <Select<number>
            allowClear
            showSearch
            optionFilterProp="label"
            value={picked ?? undefined}
            loading={products.isLoading}
            placeholder={t('inverters.product.none')}
            notFoundContent={
              products.isError ? t('inverters.product.loadFailed') : t('inverters.product.empty')
            }
            options={(products.data ?? []).map((p) => ({ value: p.id, label: productLabel(p) }))}
            onChange={(v) => {
              setPicked(v ?? null);
              setError(null);
            }}
            data-testid="product-pick-select"
          />
        </Form.Item>
      </Form>
    </GuardedModal>
  );
}
