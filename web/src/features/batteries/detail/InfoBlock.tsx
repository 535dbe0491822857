import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { withUnit } from '@/shared/devices/format';
import { formatNumber, MISSING } from '@/shared/format/number';
import type { BatteryInfo } from '../api';

/** What the stack is: model, versions, where it sits, its capacity and packs. */
export function InfoBlock({ b }: { b: BatteryInfo }) {
  const { t } = useTranslation();
  const versions = Object.entries(b.versions ?? {})
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return (
    <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} data-testid="battery-info">
      <Descriptions.Item label={t('batteries.field.model')}>{b.model || MISSING}</Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.versions')}>
        {versions || MISSING}
      </Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.plant')}>
        {b.plant?.name ?? MISSING}
      </Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.gateway')}>{b.gsn ?? MISSING}</Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.inverter')}>
        {(b.master && b.parentSn) || MISSING}
      </Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.capacity')}>
        {withUnit(b.capacity, 'Ah')}
      </Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.cycles')}>
        {formatNumber(b.cycles)}
      </Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.soh')}>{withUnit(b.soh, '%')}</Descriptions.Item>
      <Descriptions.Item label={t('batteries.field.packs')}>{b.packCount}</Descriptions.Item>
    </Descriptions>
  );
}
