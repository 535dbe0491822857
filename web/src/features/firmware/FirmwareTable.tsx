import { DeleteOutlined, DownloadOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { Flex, Switch, Tag, Typography, type TableProps } from 'antd';
import type { Key, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '@/shared/http';
import { MISSING } from '@/shared/format/number';
import { PagedTable } from '@/shared/list/PagedTable';
import { RowActionButtons, type RowAction } from '@/shared/ui/RowActionButtons';
import { useMediaQuery, useNarrow } from '@/shared/ui/useNarrow';
import type { FirmwareItem, FirmwareTarget } from './api';
import { sizeText } from './rules';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };
const secondary = (text: ReactNode, noWrap = false) => (
  <Typography.Text
    type="secondary"
    style={{ fontSize: 12, whiteSpace: noWrap ? 'nowrap' : undefined }}
  >
    {text}
  </Typography.Text>
);

/**
 * One table for inverter firmware and gateway software: the firmware and its file, the product
 * it is for, its version (and for inverters the upgrade mode, type and label), who added it and
 * when, the enabled switch and the row's actions. Columns fold into the first one on a phone.
 */
export function FirmwareTable({
  target,
  list,
  page,
  limit,
  onPage,
  filtered,
  emptyAction,
  mayEdit,
  mayEnable,
  selected,
  onSelect,
  onDetail,
  onEdit,
  onToggle,
  onDelete,
  onDownload,
}: {
  target: FirmwareTarget;
  list: UseQueryResult<Page<FirmwareItem>>;
  page: number;
  limit: number;
  onPage: (page: number, limit?: number) => void;
  filtered: boolean;
  emptyAction: ReactNode;
  mayEdit: boolean;
  mayEnable: boolean;
  selected: readonly Key[];
  onSelect: (keys: Key[]) => void;
  onDetail: (f: FirmwareItem) => void;
  onEdit: (f: FirmwareItem) => void;
  onToggle: (f: FirmwareItem) => void;
  onDelete: (f: FirmwareItem) => void;
  onDownload: (f: FirmwareItem) => void;
}) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const wide = useMediaQuery('(min-width: 1280px)');
  const inverter = target === 'inverter';

  const enabledSwitch = (f: FirmwareItem) => (
    <Switch
      size="small"
      checked={f.enabled}
      disabled={!mayEnable}
      onChange={() => onToggle(f)}
      aria-label={t(f.enabled ? 'firmware.disable' : 'firmware.enable')}
      data-testid="firmware-enabled-switch"
      data-enabled={f.enabled}
    />
  );
  const label = (f: FirmwareItem) =>
    f.typeName ? (
      <Flex vertical>
        <span>{f.parentTypeName || MISSING}</span>
        <Tag color="blue" style={{ marginInlineEnd: 0, width: 'fit-content' }}>
          {f.typeName}
        </Tag>
      </Flex>
    ) : (
      MISSING
    );

  const columns: NonNullable<TableProps<FirmwareItem>['columns']> = [
    {
      key: 'name',
      title: t('firmware.name'),
      render: (_, f) => (
        <Flex vertical style={{ minWidth: 0, wordBreak: 'break-word' }}>
          <Typography.Link onClick={() => onDetail(f)} data-testid="firmware-row-name">
            {f.name}
          </Typography.Link>
          {secondary(`${f.fileName} · ${sizeText(f.size)}`)}
          {phone && (
            <Flex gap={6} align="center" wrap style={{ marginTop: 4 }}>
              <Tag style={{ marginInlineEnd: 0 }}>{f.version}</Tag>
              {inverter && f.typeName && <Tag color="blue">{f.typeName}</Tag>}
              {enabledSwitch(f)}
            </Flex>
          )}
        </Flex>
      ),
    },
  ];
  if (!phone) {
    columns.push({
      key: 'version',
      title: t('firmware.version'),
      render: (_, f) => (
        <Flex vertical>
          <Typography.Text strong data-testid="firmware-row-version">
            {f.version}
          </Typography.Text>
          {inverter &&
            secondary(
              [f.upgradeMode ? t(`firmware.mode.${f.upgradeMode}`) : '', f.firmwareType]
                .filter(Boolean)
                .join(' · '),
            )}
        </Flex>
      ),
    });
    columns.push({
      key: 'product',
      title: t('firmware.product'),
      render: (_, f) =>
        f.productName || f.manufacturer || f.hardwareVersion ? (
          <Flex vertical>
            <span>{[f.manufacturer, f.productName].filter(Boolean).join(' ') || MISSING}</span>
            {f.partNumber && secondary(f.partNumber)}
            {f.hardwareVersion && secondary(t('firmware.hardwareShort', { v: f.hardwareVersion }))}
          </Flex>
        ) : (
          MISSING
        ),
    });
    if (inverter)
      columns.push({ key: 'label', title: t('firmware.label'), render: (_, f) => label(f) });
  }
  if (wide) {
    columns.push({
      key: 'creator',
      title: t('firmware.creator'),
      render: (_, f) => (
        <Flex vertical>
          <span>{f.creator || MISSING}</span>
          {secondary(t('firmware.createdAt', { at: f.createAt.slice(0, 10) }), true)}
          {f.updateAt &&
            f.updateAt !== f.createAt &&
            secondary(t('firmware.updatedAt', { at: f.updateAt.slice(0, 10) }), true)}
        </Flex>
      ),
    });
  }
  if (!phone) {
    columns.push({
      key: 'enabled',
      title: t('firmware.enabled'),
      onHeaderCell: () => nowrap,
      render: (_, f) => enabledSwitch(f),
    });
  }
  columns.push({
    key: 'actions',
    title: phone ? '' : t('firmware.actions'),
    align: phone ? 'right' : 'left',
    onHeaderCell: () => nowrap,
    onCell: () => nowrap,
    render: (_, f) => {
      const actions: RowAction[] = [
        {
          key: 'firmware-detail',
          label: t('firmware.details'),
          icon: <EyeOutlined />,
          onClick: () => onDetail(f),
        },
        {
          key: 'firmware-download',
          label: t('firmware.download'),
          icon: <DownloadOutlined />,
          onClick: () => onDownload(f),
        },
      ];
      if (mayEdit)
        actions.push(
          {
            key: 'firmware-edit',
            label: t('firmware.edit'),
            icon: <EditOutlined />,
            onClick: () => onEdit(f),
          },
          {
            key: 'firmware-delete',
            label: t('firmware.delete'),
            icon: <DeleteOutlined />,
            danger: true,
            disabledReason: f.inUse ? t('firmware.refusal.inUse') : undefined,
            onClick: () => onDelete(f),
          },
        );
      return (
        <RowActionButtons
          compact={phone || !wide}
          menuLabel={t('firmware.actionsOf', { name: f.name })}
          actions={actions}
        />
      );
    },
  });

  return (
    <PagedTable<FirmwareItem>
      list={list}
      page={page}
      limit={limit}
      onPage={onPage}
      columns={columns}
      testId="firmware-table"
      errorTestId="firmware-error"
      loadFailed={t('firmware.loadFailed')}
      empty={filtered ? t('firmware.emptyFiltered') : t('firmware.empty')}
      emptyAction={!filtered && emptyAction}
      total={(total) => t('firmware.total', { total })}
      compact={phone}
      rowSelection={
        mayEdit
          ? {
              selectedRowKeys: [...selected],
              onChange: (keys) => onSelect(keys),
              getCheckboxProps: (f) => ({ disabled: f.inUse, 'aria-label': f.name }),
            }
          : undefined
      }
    />
  );
}
