import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Checkbox, Flex, Input, InputNumber, Select, Table, type TableProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
import {
  DATA_TYPES,
  dataTypeName,
  dataTypeOf,
  newPoint,
  registerCount,
  setField,
  type Point,
} from './config';

const PAGE = 15;

interface Row {
  /** The point's place in the config. */
  index: number;
  point: Point;
}

/**
 * A config's points as an editable table: one row per point with every field of the format
 * (function code, address, count, unit, data type, swaps, base, scale, skipped bytes), rows
 * added and removed; filtered by key. Read-only without the edit right.
 */
export function PointsTable({
  points,
  onChange,
  readOnly,
}: {
  points: readonly Point[];
  onChange: (points: Point[]) => void;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);

  const rows = useMemo(() => {
    const f = filter.trim().toLowerCase();
    const all = points.map((point, index) => ({ index, point }));
    return f ? all.filter((r) => r.point.key.toLowerCase().includes(f)) : all;
  }, [points, filter]);

  const update = (index: number, point: Point) =>
    onChange(points.map((p, i) => (i === index ? point : p)));
  const set =
    <K extends keyof Point>(r: Row, field: K) =>
    (value: Point[K] | null) =>
      update(r.index, setField(r.point, field, value));
  const num = (v: number | string | null) => (v === null || v === '' ? null : Number(v));
  const label = (r: Row, field: string) => `${r.point.key} ${t(`protocols.point.${field}`)}`;

  const columns: NonNullable<TableProps<Row>['columns']> = [
    {
      key: 'key',
      title: t('protocols.point.key'),
      fixed: 'left',
      width: 190,
      render: (_, r) => (
        <Input
          value={r.point.key}
          disabled={readOnly}
          aria-label={t('protocols.point.key')}
          onChange={(e) => update(r.index, { ...r.point, key: e.target.value })}
          data-keyfilter="off"
          data-testid="point-key"
        />
      ),
    },
    {
      key: 'function_code',
      title: t('protocols.point.function_code'),
      width: 120,
      render: (_, r) => (
        <Select<number>
          value={r.point.function_code ?? 3}
          disabled={readOnly}
          aria-label={label(r, 'function_code')}
          style={{ width: '100%' }}
          onChange={(v) => set(r, 'function_code')(v)}
          options={[
            { value: 3, label: t('protocols.point.holding') },
            { value: 4, label: t('protocols.point.input') },
          ]}
        />
      ),
    },
    {
      key: 'address',
      title: t('protocols.point.address'),
      width: 100,
      render: (_, r) => (
        <InputNumber
          value={r.point.address}
          min={0}
          max={65535}
          precision={0}
          disabled={readOnly}
          aria-label={label(r, 'address')}
          onChange={(v) => set(r, 'address')(num(v))}
          data-testid="point-address"
        />
      ),
    },
    {
      key: 'count',
      title: t('protocols.point.count'),
      width: 90,
      render: (_, r) => (
        <InputNumber
          value={r.point.count ?? null}
          placeholder={String(registerCount({ ...r.point, count: undefined }) ?? '')}
          min={1}
          max={125}
          precision={0}
          disabled={readOnly}
          aria-label={label(r, 'count')}
          onChange={(v) => set(r, 'count')(num(v))}
        />
      ),
    },
    {
      key: 'unit',
      title: t('protocols.point.unit'),
      width: 90,
      render: (_, r) => (
        <Input
          value={r.point.unit ?? ''}
          disabled={readOnly}
          maxLength={Limits.ProtocolPointBody.unit.maxLength}
          aria-label={label(r, 'unit')}
          onChange={(e) => set(r, 'unit')(e.target.value)}
          data-keyfilter="off"
        />
      ),
    },
    {
      key: 'data_type',
      title: t('protocols.point.data_type'),
      width: 200,
      render: (_, r) => {
        const dt = r.point.data_type;
        return (
          <Flex gap={4}>
            <Select
              value={dataTypeName(dt)}
              disabled={readOnly}
              aria-label={label(r, 'data_type')}
              style={{ width: 90 }}
              onChange={(v) => update(r.index, { ...r.point, data_type: dataTypeOf(v, dt) })}
              options={DATA_TYPES.map((d) => ({ value: d, label: d }))}
            />
            {typeof dt === 'object' && (
              <>
                <InputNumber
                  value={dt.bits.bit}
                  min={0}
                  max={31}
                  precision={0}
                  style={{ width: 56 }}
                  disabled={readOnly}
                  aria-label={label(r, 'bit')}
                  title={t('protocols.point.bit')}
                  onChange={(v) =>
                    update(r.index, {
                      ...r.point,
                      data_type: { bits: { ...dt.bits, bit: num(v) ?? 0 } },
                    })
                  }
                />
                <InputNumber
                  value={dt.bits.width}
                  min={1}
                  max={32}
                  precision={0}
                  style={{ width: 56 }}
                  disabled={readOnly}
                  aria-label={label(r, 'width')}
                  title={t('protocols.point.width')}
                  onChange={(v) =>
                    update(r.index, {
                      ...r.point,
                      data_type: { bits: { ...dt.bits, width: num(v) ?? 1 } },
                    })
                  }
                />
              </>
            )}
          </Flex>
        );
      },
    },
    {
      key: 'swap',
      title: t('protocols.point.swap'),
      width: 120,
      render: (_, r) => (
        <Flex vertical>
          <Checkbox
            checked={r.point.byte_swap ?? false}
            disabled={readOnly}
            onChange={(e) => set(r, 'byte_swap')(e.target.checked)}
          >
            {t('protocols.point.byte_swap')}
          </Checkbox>
          <Checkbox
            checked={r.point.word_swap ?? false}
            disabled={readOnly}
            onChange={(e) => set(r, 'word_swap')(e.target.checked)}
          >
            {t('protocols.point.word_swap')}
          </Checkbox>
        </Flex>
      ),
    },
    {
      key: 'scale',
      title: t('protocols.point.scale'),
      width: 110,
      render: (_, r) => (
        <InputNumber
          value={r.point.scale ?? 1}
          disabled={readOnly}
          aria-label={label(r, 'scale')}
          onChange={(v) => set(r, 'scale')(num(v))}
          data-testid="point-scale"
        />
      ),
    },
    {
      key: 'base',
      title: t('protocols.point.base'),
      width: 100,
      render: (_, r) => (
        <InputNumber
          value={r.point.base ?? 0}
          disabled={readOnly}
          aria-label={label(r, 'base')}
          onChange={(v) => set(r, 'base')(num(v))}
        />
      ),
    },
    {
      key: 'skip_bytes',
      title: t('protocols.point.skip_bytes'),
      width: 90,
      render: (_, r) => (
        <InputNumber
          value={r.point.skip_bytes ?? 0}
          min={0}
          max={250}
          precision={0}
          disabled={readOnly}
          aria-label={label(r, 'skip_bytes')}
          onChange={(v) => set(r, 'skip_bytes')(num(v))}
        />
      ),
    },
    {
      key: 'second_address',
      title: t('protocols.point.second_address'),
      width: 110,
      render: (_, r) => (
        <InputNumber
          value={r.point.second_address ?? null}
          min={0}
          max={65535}
          precision={0}
          disabled={readOnly}
          aria-label={label(r, 'second_address')}
          onChange={(v) => set(r, 'second_address')(num(v))}
        />
      ),
    },
  ];
  if (!readOnly)
    columns.push({
      key: 'remove',
      title: '',
      width: 56,
      render: (_, r) => (
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('protocols.point.remove', { key: r.point.key })}
          onClick={() => onChange(points.filter((_p, i) => i !== r.index))}
          data-testid="point-remove"
        />
      ),
    });

  return (
    <Flex vertical gap={12}>
      <Flex gap={12} wrap justify="space-between">
        <Input.Search
          allowClear
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value);
            setPage(1);
          }}
          placeholder={t('protocols.point.filter')}
          aria-label={t('protocols.point.filter')}
          style={{ maxWidth: 280 }}
          data-testid="point-filter"
        />
        {!readOnly && (
          <Button
            icon={<PlusOutlined />}
            onClick={() => {
              onChange([...points, newPoint(points)]);
              setFilter('');
              setPage(Math.ceil((points.length + 1) / PAGE));
            }}
            data-testid="point-add"
          >
            {t('protocols.point.add')}
          </Button>
        )}
      </Flex>
      <Table<Row>
        rowKey="index"
        data-testid="point-table"
        size="small"
        columns={columns}
        dataSource={rows}
        // many columns: the table scrolls inside its card, the key column stays
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: PAGE,
          showSizeChanger: false,
          onChange: setPage,
          showTotal: (total) => t('protocols.point.total', { total }),
        }}
      />
    </Flex>
  );
}
