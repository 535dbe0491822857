import type { HTMLAttributes, ReactNode } from 'react';
import './standIns.css';

/**
 * A status as antd's Badge shows it (a coloured dot, the text beside it), without the Badge
 * module (its counters and ribbon) on a first screen (issue 32). Other attributes (a label, a
 * role, test ids) go to the outer element, as Badge's do.
 */
export function StatusDot({
  color,
  text,
  ...rest
}: { color: string; text?: ReactNode } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span className="status-dot" {...rest}>
      <span className="status-dot-mark" style={{ background: color }} />
      {text !== undefined && <span className="status-dot-text">{text}</span>}
    </span>
  );
}

/** A number in a small pill, as antd's `<Badge count size="small" showZero>`. */
export function CountPill({ count, color }: { count: number; color: string }) {
  return (
    <span className="count-pill" style={{ background: color }}>
      {count}
    </span>
  );
}
