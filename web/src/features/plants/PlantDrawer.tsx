import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Image, Result, Skeleton, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { formatNumber, MISSING } from '@/shared/format/number';
import { currentLanguage } from '@/shared/i18n';
import { plantDetailQuery } from './api';
import { currencyName } from './currency';
import { plantState } from '@/shared/devices/live';
import { tariffFromRows, TIME_OF_USE, VOLUME } from './tariff';

const text = (v: string | null | undefined) => (v ? v : MISSING);

/** The read-only view of a plant (for users who may not edit it). */
export function PlantDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation();
  const plant = useQuery(plantDetailQuery(id));
  const p = plant.data;
  const tariff = p ? tariffFromRows(p.charges, p.valuation) : null;
  const currency = p?.currency?.text ?? '';
  // as the list row it was opened from: Off when its fresh inverters are all switched off
  const state = p ? plantState(p.status, p.realtime.stale, p.realtime.switchedOff) : undefined;
  return (
    <Drawer
      open
      onClose={onClose}
      size={520}
      title={p?.name ?? t('plants.detail.title')}
      data-testid="plant-drawer"
    >
      {plant.isPending && <Skeleton active />}
      {plant.isError && <Result status="404" title={t('plants.notFound')} />}
      {p && tariff && (
        <>
          {p.imageUrl && <Image src={p.imageUrl} alt={p.name} style={{ marginBottom: 16 }} />}
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('plants.field.name')}>{p.name}</Descriptions.Item>
            <Descriptions.Item label={t('plants.column.status')}>
              <Tag color={state?.color} data-testid="plant-drawer-status" data-state={state?.key}>
                {t(`plants.status.${state?.key ?? 'offline'}`)}
              </Tag>
              {p.share && <Tag color="blue">{t('plants.shared')}</Tag>}
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.field.type')}>
              {t(`plants.type.${p.type}`)}
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.field.capacity')}>
              {formatNumber(p.totalPower)} kWp
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.field.joinDate')}>
              {text(p.joinDate)}
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.field.timezone')}>
              {text(p.timezone?.text)}
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.field.address')}>
              {text(p.address)}
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.field.lonLat')}>
              {formatNumber(p.lon)}, {formatNumber(p.lat)}
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.field.owner')}>
              {text(p.master?.nickname ?? p.master?.account)}
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.field.principal')}>
              {text(p.principal)}
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.field.phone')}>{text(p.phone)}</Descriptions.Item>
            <Descriptions.Item label={t('plants.field.email')}>{text(p.email)}</Descriptions.Item>
            <Descriptions.Item label={t('plants.field.installer')}>
              {text(p.installer)}
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.field.currency')}>
              {p.currency
                ? `${p.currency.code ?? ''} (${currency}) ${currencyName(p.currency.code, currentLanguage())}`.trim()
                : MISSING}
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.field.valuation')}>
              {t(`plants.valuation.${tariff.valuation}`)}
              {tariff.valuation === TIME_OF_USE &&
                tariff.segments?.map((s) => (
                  <div key={s.start}>
                    {s.start}–{s.end}: {currency}
                    {formatNumber(s.price)}/kWh
                  </div>
                ))}
              {tariff.valuation === VOLUME &&
                tariff.tiers?.map((s) => (
                  <div key={s.start}>
                    {s.start}–{s.end || '∞'} kWh: {currency}
                    {formatNumber(s.price)}/kWh
                  </div>
                ))}
              {tariff.valuation !== TIME_OF_USE && tariff.valuation !== VOLUME && (
                <div>
                  {currency}
                  {formatNumber(tariff.price)}/kWh
                </div>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.field.invest')}>
              {currency}
              {formatNumber(p.invest, 2)}
            </Descriptions.Item>
            <Descriptions.Item label={t('plants.column.created')}>
              {p.createAt ? dayjs(p.createAt).format('YYYY-MM-DD HH:mm') : MISSING}
            </Descriptions.Item>
          </Descriptions>
        </>
      )}
    </Drawer>
  );
}

export default PlantDrawer;
