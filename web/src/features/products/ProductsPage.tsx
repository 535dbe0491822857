import { ListCard } from '@/shared/list/ListCard';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Select, Tag, Typography, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { formatPower } from '@/shared/format/units';
import { isApiError } from '@/shared/http';
import { useDraft } from '@/shared/hooks/useDraft';
import { PagedTable } from '@/shared/list/PagedTable';
import { useListQuery } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { actionsColumn } from '@/shared/ui/actionsColumn';
import { useMediaQuery, useNarrow } from '@/shared/ui/useNarrow';
import {
  CATEGORIES,
  deleteProduct,
  PRODUCT_FILTERS,
  productKeys,
  productListQuery,
  refusalDetail,
  type Category,
  type Product,
} from './api';
import { ProductDialog } from './ProductDialog';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };

const CATEGORY_COLOR: Record<Category, string> = {
  inverter: 'blue',
  gateway: 'purple',
  battery: 'green',
  meter: 'orange',
};

/**
 * management/product: the catalogue of products and their hardware versions that firmware,
 * inverters and the plant wizard refer to (internal administrators). Adding, editing and
 * deleting need sys.product.edit; a product firmware or devices refer to is not deleted.
 */
export default function ProductsPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const phone = useNarrow();
  const desktop = useMediaQuery('(min-width: 1200px)');
  const mayEdit = useCan('sys.product.edit');
  const { query, list, update, setPage, filtered } = useListQuery(
    PRODUCT_FILTERS,
    productListQuery,
  );
  const [search, setSearch] = useDraft(query.keyword);
  const [dialog, setDialog] = useState<{ product?: Product } | null>(null);

  const remove = useMutation({
    mutationFn: (p: Product) => deleteProduct(p.id),
    onSuccess: async () => {
      message.success(t('products.deleted'));
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
    },
    onError: (e) => {
      if (refusalDetail(e) === 'inUse') message.error(t('products.refusal.inUse'));
      else if (isApiError(e)) message.error(e.message);
    },
  });
  const confirmDelete = (p: Product) =>
    modal.confirm({
      title: t('products.deleteTitle', { name: p.name }),
      content: t('products.deleteText'),
      okText: t('products.delete'),
      okButtonProps: { danger: true, 'data-testid': 'product-delete-ok' },
      cancelText: t('common.cancel'),
      // a refusal is shown as a message; the confirmation closes either way
      onOk: () => remove.mutateAsync(p).catch(() => undefined),
    });

  const category = (p: Product) => (
    <Tag color={CATEGORY_COLOR[p.category]}>{t(`products.categories.${p.category}`)}</Tag>
  );
  const hardware = (p: Product) =>
    p.hardware.length ? (
      <Flex wrap gap={4} data-testid="product-row-hardware">
        {p.hardware.map((h) => (
          <Tag key={h.id} style={{ marginInlineEnd: 0 }}>
            {h.version}
          </Tag>
        ))}
      </Flex>
    ) : (
      MISSING
    );

  const columns: NonNullable<TableProps<Product>['columns']> = [];
  if (!phone)
    columns.push({
      key: 'category',
      title: t('products.category'),
      onHeaderCell: () => nowrap,
      onCell: () => nowrap,
      render: (_, p) => category(p),
    });
  columns.push({
    key: 'name',
    title: t('products.name'),
    render: (_, p) => (
      <Flex vertical>
        <Typography.Text strong data-testid="product-row-name">
          {p.name}
        </Typography.Text>
        {phone && (
          <>
            <Typography.Text type="secondary">{p.partNumber}</Typography.Text>
            <span>{category(p)}</span>
            {hardware(p)}
          </>
        )}
      </Flex>
    ),
  });
  if (!phone) {
    columns.push({
      key: 'partNumber',
      title: t('products.partNumber'),
      render: (_, p) => <span data-testid="product-row-part-number">{p.partNumber}</span>,
    });
  }
  if (desktop) {
    columns.push(
      {
        key: 'manufacturer',
        title: t('products.manufacturer'),
        render: (_, p) => p.manufacturer || MISSING,
      },
      {
        key: 'label',
        title: t('products.label'),
        render: (_, p) => p.typeName || MISSING,
      },
      {
        key: 'ratedPower',
        title: t('products.ratedPower'),
        align: 'right',
        onHeaderCell: () => nowrap,
        onCell: () => nowrap,
        render: (_, p) => (p.ratedPower === null ? MISSING : formatPower(p.ratedPower)),
      },
    );
  }
  if (!phone) {
    columns.push({
      key: 'hardware',
      title: t('products.hardware'),
      render: (_, p) => hardware(p),
    });
  }
  columns.push(
    {
      key: 'firmware',
      title: t('products.firmwareCount'),
      align: 'right',
      render: (_, p) => p.firmwareCount,
    },
    {
      key: 'devices',
      title: t('products.deviceCount'),
      align: 'right',
      render: (_, p) => p.deviceCount,
    },
  );
  if (desktop) {
    columns.push({
      key: 'updateAt',
      title: t('products.updated'),
      onHeaderCell: () => nowrap,
      onCell: () => nowrap,
      render: (_, p) => dayjs(p.updateAt).format('YYYY-MM-DD HH:mm'),
    });
  }
  if (mayEdit) {
    columns.push(
      actionsColumn<Product>(t('products.actions'), phone, (p) => [
        {
          key: 'edit',
          label: t('products.edit'),
          icon: <EditOutlined />,
          onClick: () => setDialog({ product: p }),
        },
        {
          key: 'delete',
          label: t('products.delete'),
          icon: <DeleteOutlined />,
          danger: true,
          disabledReason:
            p.firmwareCount + p.deviceCount > 0 ? t('products.refusal.inUse') : undefined,
          onClick: () => confirmDelete(p),
        },
      ]),
    );
  }

  const addButton = (testId: string) => (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => setDialog({})}
      data-testid={testId}
    >
      {t('products.add')}
    </Button>
  );

  return (
    <ListCard
      title={t('products.title')}
      titleTestId="products-title"
      extra={mayEdit && addButton('product-add')}
      search={{
        placeholder: t('products.search'),
        value: search,
        onChange: setSearch,
        onSearch: (v) => update({ keyword: v }),
        width: 280,
        testId: 'product-search',
      }}
      filters={
        <>
          <Select<Category | ''>
            value={query.category}
            onChange={(v) => update({ category: v })}
            aria-label={t('products.category')}
            style={{ width: phone ? '100%' : 180 }}
            options={[
              { value: '', label: t('products.allCategories') },
              ...CATEGORIES.map((c) => ({ value: c, label: t(`products.categories.${c}`) })),
            ]}
            data-testid="product-category-filter"
          />
        </>
      }
    >
      {/* a wide table scrolls inside the card, never the page */}
      <div style={{ overflowX: 'auto' }}>
        <PagedTable<Product>
          list={list}
          page={query.page}
          limit={query.limit}
          onPage={setPage}
          columns={columns}
          testId="product-table"
          errorTestId="products-error"
          loadFailed={t('products.loadFailed')}
          empty={filtered ? t('products.emptyFiltered') : t('products.empty')}
          emptyAction={mayEdit && !filtered && addButton('product-add-empty')}
          total={(total) => t('products.total', { total })}
          compact={phone}
        />
      </div>
      {dialog && <ProductDialog product={dialog.product} onClose={() => setDialog(null)} />}
    </ListCard>
  );
}
