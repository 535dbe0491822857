import { Descriptions, Drawer, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { useNarrow } from '@/shared/ui/useNarrow';
import type { FirmwareItem } from './api';
import { sizeText } from './rules';

const or = (v: string | null | undefined) => (v ? v : MISSING);

/** Every field of a firmware, with both change logs in full. */
export function FirmwareDetail({ item, onClose }: { item: FirmwareItem; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const inverter = item.target !== 'gateway';
  const log = (text: string) => (
    <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
      {or(text)}
    </Typography.Paragraph>
  );
  const rows = [
    { key: 'name', label: t('firmware.name'), children: item.name },
    { key: 'version', label: t('firmware.version'), children: item.version },
    {
      key: 'file',
      label: t('firmware.fileName'),
      children: `${item.fileName} (${sizeText(item.size)})`,
    },
    ...(inverter
      ? [
          {
            key: 'label',
            label: t('firmware.label'),
            children: (
              <span>
                {or(item.parentTypeName)} / {or(item.typeName)}
                {item.codes.map((c) => (
                  <Tag key={c} style={{ marginInlineStart: 4 }}>
                    {c}
                  </Tag>
                ))}
              </span>
            ),
          },
          {
            key: 'mode',
            label: t('firmware.upgradeMode'),
            children: item.upgradeMode ? t(`firmware.mode.${item.upgradeMode}`) : MISSING,
          },
          { key: 'ftype', label: t('firmware.firmwareType'), children: or(item.firmwareType) },
        ]
      : []),
    { key: 'maker', label: t('firmware.manufacturer'), children: or(item.manufacturer) },
    { key: 'product', label: t('firmware.product'), children: or(item.productName) },
    { key: 'part', label: t('firmware.partNumber'), children: or(item.partNumber) },
    { key: 'hw', label: t('firmware.hardwareVersion'), children: or(item.hardwareVersion) },
    {
      key: 'enabled',
      label: t('firmware.enabled'),
      children: item.enabled ? t('firmware.status.enabled') : t('firmware.status.disabled'),
    },
    { key: 'creator', label: t('firmware.creator'), children: or(item.creator) },
    { key: 'created', label: t('firmware.created'), children: or(item.createAt) },
    { key: 'updated', label: t('firmware.updated'), children: or(item.updateAt) },
    { key: 'logZh', label: t('firmware.changeLogZh'), children: log(item.changeLog) },
    { key: 'logEn', label: t('firmware.changeLogEn'), children: log(item.changeLogEn) },
  ];
  return (
    <Drawer
      open
      onClose={onClose}
      title={`${item.name} ${item.version}`}
      size={phone ? '100%' : 560}
      data-testid="firmware-detail"
    >
      <Descriptions column={1} bordered size="small" items={rows} />
    </Drawer>
  );
}
