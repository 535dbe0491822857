import { ApartmentOutlined, DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Drawer, Flex, Input, Select, Typography } from 'antd';
import { useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { useDraft } from '@/shared/hooks/useDraft';
import { useListQuery } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { useNarrow } from '@/shared/ui/useNarrow';
import {
  FIRMWARE_FILTERS,
  firmwareListQuery,
  inverterTypesQuery,
  type FirmwareItem,
  type FirmwareTarget,
} from './api';
import { FirmwareDetail } from './FirmwareDetail';
import { FirmwareDialog } from './FirmwareDialog';
import { FirmwareTable } from './FirmwareTable';
import { findType } from './rules';
import { TypeTree } from './TypeTree';
import { useFirmwareActions } from './useFirmwareActions';

const LIST: Record<FirmwareTarget, ReturnType<typeof firmwareListQuery>> = {
  inverter: firmwareListQuery('inverter'),
  gateway: firmwareListQuery('gateway'),
};

/**
 * firmware/inv and firmware/gate: the firmware of one target, searchable and paged; for
 * inverters beside the inverter-type tree that files it (a drawer on a phone). Uploading,
 * editing and deleting need the target's edit key, enabling firmware.enable (inverters) or
 * firmware.gateway.edit (gateways).
 */
export function FirmwarePage({ target }: { target: FirmwareTarget }) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const inverter = target === 'inverter';
  const mayEdit = useCan(inverter ? 'firmware.inverter.edit' : 'firmware.gateway.edit');
  const mayEnable = useCan(inverter ? 'firmware.enable' : 'firmware.gateway.edit');
  const { query, list, update, setPage, filtered } = useListQuery(FIRMWARE_FILTERS, LIST[target]);
  const tree = useQuery({ ...inverterTypesQuery, enabled: inverter });
  const [search, setSearch] = useDraft(query.keyword);
  const [dialog, setDialog] = useState<{ item?: FirmwareItem } | null>(null);
  const [detail, setDetail] = useState<FirmwareItem | null>(null);
  const [selected, setSelected] = useState<Key[]>([]);
  const [treeOpen, setTreeOpen] = useState(false);
  const rows = list.data?.infos ?? [];
  const actions = useFirmwareActions(rows, () => setSelected([]));
  const chosen = inverter ? findType(tree.data ?? [], query.typeId) : null;

  const selectType = (id: number | null) => {
    setSelected([]);
    update({ typeId: id });
    setTreeOpen(false);
  };
  const uploadButton = (testId: string) => (
    <Button
      type="primary"
      icon={<UploadOutlined />}
      onClick={() => setDialog({})}
      data-testid={testId}
    >
      {t('firmware.upload')}
    </Button>
  );

  const typeTree = <TypeTree selected={query.typeId} onSelect={selectType} />;

  const listCard = (
    <Card
      style={{ flex: 1, minWidth: 0 }}
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="firmware-title">
          {t(inverter ? 'firmware.inverterTitle' : 'firmware.gatewayTitle')}
        </Typography.Title>
      }
      extra={mayEdit && !phone && uploadButton('firmware-upload')}
    >
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        {inverter && phone && (
          <Button
            icon={<ApartmentOutlined />}
            onClick={() => setTreeOpen(true)}
            data-testid="type-tree-open"
          >
            {chosen ? chosen.node.name : t('firmware.types.title')}
          </Button>
        )}
        {mayEdit && phone && uploadButton('firmware-upload')}
        <Input.Search
          allowClear
          placeholder={t('firmware.search')}
          aria-label={t('firmware.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(v) => {
            setSelected([]);
            update({ keyword: v });
          }}
          style={{ width: phone ? '100%' : 280 }}
          data-testid="firmware-search"
        />
        <Select
          value={query.enabled}
          onChange={(v) => update({ enabled: v })}
          aria-label={t('firmware.enabled')}
          style={{ width: phone ? '100%' : 160 }}
          options={[
            { value: '', label: t('firmware.status.any') },
            { value: 'true', label: t('firmware.status.enabled') },
            { value: 'false', label: t('firmware.status.disabled') },
          ]}
          data-testid="firmware-enabled-filter"
        />
        {mayEdit && selected.length > 0 && (
          <Button
            danger
            icon={<DeleteOutlined />}
            onClick={() => actions.confirmDeleteMany(selected.map(Number))}
            data-testid="firmware-batch-delete"
          >
            {t('firmware.deleteSelected', { count: selected.length })}
          </Button>
        )}
      </Flex>
      <FirmwareTable
        target={target}
        list={list}
        page={query.page}
        limit={query.limit}
        onPage={setPage}
        filtered={filtered}
        emptyAction={mayEdit && uploadButton('firmware-upload-empty')}
        mayEdit={mayEdit}
        mayEnable={mayEnable}
        selected={selected}
        onSelect={setSelected}
        onDetail={setDetail}
        onEdit={(item) => setDialog({ item })}
        onToggle={actions.confirmToggle}
        onDelete={actions.confirmDelete}
        onDownload={actions.download}
      />
    </Card>
  );

  return (
    <Flex gap={16} align="flex-start">
      {inverter && !phone && (
        <Card style={{ width: 260, flex: 'none' }} styles={{ body: { padding: 12 } }}>
          {typeTree}
        </Card>
      )}
      {listCard}
      {inverter && phone && (
        <Drawer
          open={treeOpen}
          onClose={() => setTreeOpen(false)}
          placement="left"
          size={320}
          // the tree has its own heading
          aria-label={t('firmware.types.title')}
        >
          {typeTree}
        </Drawer>
      )}
      {dialog && (
        <FirmwareDialog
          target={target}
          item={dialog.item}
          typeId={query.typeId}
          onClose={() => setDialog(null)}
        />
      )}
      {detail && <FirmwareDetail item={detail} onClose={() => setDetail(null)} />}
    </Flex>
  );
}
