import { Button, Flex, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DeviceKind } from './kind';
import { STATUSES } from '@/shared/ui/status';
import type { DeviceList } from './useDeviceList';

/** Status, plant and SN filters of a device list, and a reset once any is set. */
export function DeviceFilters<Row>({ kind, state }: { kind: DeviceKind; state: DeviceList<Row> }) {
  const { t } = useTranslation();
  const { query, update } = state;
  return (
    <Flex gap={12} wrap style={{ marginBottom: 16 }}>
      <Select
        aria-label={t(`${kind.ns}.filter.status`)}
        style={{ width: 160 }}
        value={query.status}
        onChange={(status: number) => update({ status })}
        options={[
          { value: -1, label: t(`${kind.ns}.filter.anyStatus`) },
          ...STATUSES.map((s) => ({
            value: s.value,
            label: t(`${kind.ns}.status.${s.key}`),
          })),
        ]}
      />
      <Select
        aria-label={t(`${kind.ns}.filter.plant`)}
        style={{ width: 220 }}
        allowClear
        showSearch
        optionFilterProp="label"
        placeholder={t(`${kind.ns}.filter.plant`)}
        value={query.plantId ?? undefined}
        onChange={(plantId?: number) => update({ plantId: plantId ?? null })}
        options={(state.plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
      />
      <Input.Search
        aria-label={t(`${kind.ns}.filter.sn`)}
        style={{ width: 220 }}
        allowClear
        placeholder={t(`${kind.ns}.filter.sn`)}
        value={state.sn}
        onChange={(e) => state.setSn(e.target.value)}
        onSearch={(v) => update({ sn: v.trim() })}
      />
      {state.filtered && <Button onClick={state.reset}>{t(`${kind.ns}.filter.reset`)}</Button>}
    </Flex>
  );
}
