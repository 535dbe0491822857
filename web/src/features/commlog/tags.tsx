import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Direction } from './api';

/** Uplink (the gateway sent it) or downlink (the portal sent it to the gateway). */
export function DirectionTag({ d }: { d: Direction }) {
  const { t } = useTranslation();
  return (
    <Tag
      color={d === 'up' ? 'green' : 'blue'}
      icon={d === 'up' ? <ArrowUpOutlined /> : <ArrowDownOutlined />}
      style={{ marginInlineEnd: 0 }}
      data-testid="commlog-direction"
      data-direction={d}
    >
      {t(`commlog.dir.${d}`)}
    </Tag>
  );
}
