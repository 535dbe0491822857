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
      {t(`commLog.dir.${d}`)}
    </Tag>
  );
}

/** What a message is, named in the reader's language when the screen knows the kind. */
export function KindTag({ kind }: { kind: string }) {
  const { t, i18n } = useTranslation();
  const key = `commLog.kinds.${kind}`;
  return (
    <Tag style={{ marginInlineEnd: 0 }} data-testid="commlog-kind" data-kind={kind}>
      {i18n.exists(key) ? t(key) : kind}
    </Tag>
  );
}
