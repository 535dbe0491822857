import type { SegmentedProps } from 'antd';
import type { ComponentType } from 'react';
import { segmentedCode } from './deferredCode';
import { usePart } from './deferredPart';
import './standIns.css';

type Value = string | number;
type Props<V extends Value> = SegmentedProps<V> & { 'data-testid'?: string };

/**
 * antd's Segmented for a choice on a first screen (issue 32). Until its code is in, a row of
 * radio buttons with the same look: a choice made there goes to `onChange`.
 */
export function DeferredSegmented<V extends Value>(props: Props<V>) {
  const Segmented = usePart(segmentedCode) as ComponentType<Props<V>> | null;
  if (Segmented) return <Segmented {...props} />;
  return (
    <div className="segmented-stub" role="radiogroup" data-testid={props['data-testid']}>
      {props.options.map((o) => {
        const option = typeof o === 'object' ? o : { value: o, label: o };
        const on = option.value === props.value;
        return (
          <label key={option.value} className={on ? 'segmented-stub-on' : undefined}>
            <input
              type="radio"
              checked={on}
              onChange={() => props.onChange?.(option.value)}
              disabled={props.disabled || option.disabled}
            />
            {'icon' in option && option.icon}
            {option.label !== undefined && <span>{option.label}</span>}
          </label>
        );
      })}
    </div>
  );
}
