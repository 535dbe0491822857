import type { SelectProps } from 'antd';
import { useState, type ComponentType, type ReactNode } from 'react';
import { usePart } from './deferredPart';
import { selectCode } from './selectCode';

type Props<V> = SelectProps<V> & { 'data-testid'?: string };

/**
 * antd's Select for filters on a first screen (issue 32: its code is 23 kB gzip). The screen
 * shows without it: until the code is in (its download starts when the filter first shows) a
 * plain box of the same size shows the chosen option or the placeholder; pressed or focused
 * meanwhile, the real one opens or takes the focus when it comes.
 */
export function DeferredSelect<V>(props: Props<V>) {
  const Select = usePart(selectCode);
  const [wants, setWants] = useState({ open: false, focus: false });

  if (Select) {
    const Typed = Select as ComponentType<Props<V>>;
    return (
      <Typed
        {...props}
        autoFocus={props.autoFocus || wants.focus}
        defaultOpen={props.defaultOpen || wants.open}
      />
    );
  }

  const chosen = props.options?.find((o) => o.value === props.value);
  const shown: ReactNode = chosen ? (chosen.label as ReactNode) : props.placeholder;
  return (
    <div
      role="combobox"
      aria-label={props['aria-label']}
      aria-expanded={false}
      tabIndex={0}
      className="select-stub"
      style={props.style}
      data-testid={props['data-testid']}
      onMouseDown={() => setWants({ open: true, focus: true })}
      onFocus={() => setWants((w) => ({ ...w, focus: true }))}
      // focus moved on to another control meanwhile: the real one does not take it back
      onBlur={() => setWants({ open: false, focus: false })}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown')
          setWants({ open: true, focus: true });
      }}
    >
      <span className={chosen ? 'select-stub-value' : 'select-stub-value select-stub-placeholder'}>
        {shown}
      </span>
      <span className="select-stub-arrow" aria-hidden />
    </div>
  );
}
