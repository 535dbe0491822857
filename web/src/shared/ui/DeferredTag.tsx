import { CloseOutlined } from '@ant-design/icons';
import type { TagProps } from 'antd';
import type { ComponentType } from 'react';
import { tagCode } from './deferredCode';
import { usePart } from './deferredPart';
import './standIns.css';

type Props = TagProps & { 'data-testid'?: string };

/**
 * antd's Tag on a first screen (issue 32: its code with the closing and the colour presets).
 * Until the code is in, a box of the same look (no colour or a preset's name, such as `blue`)
 * with the text and, when `closable`, the close icon, which calls `onClose`.
 */
export function DeferredTag(props: Props) {
  const Tag = usePart(tagCode) as ComponentType<Props> | null;
  if (Tag) return <Tag {...props} />;
  const { color, closable, closeIcon, onClose, style, children } = props;
  return (
    <span
      className="tag-stub"
      style={
        color
          ? {
              ...style,
              color: `var(--ant-${color}-7)`,
              background: `var(--ant-${color}-1)`,
              borderColor: `var(--ant-${color}-3)`,
            }
          : style
      }
      data-testid={props['data-testid']}
    >
      {children}
      {closable && (
        <button type="button" className="tag-stub-close" onClick={onClose}>
          {closeIcon ?? <CloseOutlined />}
        </button>
      )}
    </span>
  );
}
