import { SearchOutlined } from '@ant-design/icons';
import type { InputRef } from 'antd';
import type { SearchProps } from 'antd/es/input';
import { useEffect, useRef, useState, type ComponentType, type RefAttributes } from 'react';
import { searchCode } from './deferredCode';
import { usePart } from './deferredPart';
import './standIns.css';

type Props = Omit<SearchProps, 'value'> & { value: string; 'data-testid'?: string };
type RealSearch = ComponentType<Props & RefAttributes<InputRef>>;

/**
 * antd's Input.Search (controlled: `value`) for a list's search box on a first screen (issue 32:
 * the input's code and styles). Until the code is in, a plain text box of the same size with its search button: what
 * is typed there goes to `onChange`, Enter and the button to `onSearch`, and a box that has the
 * focus when the real one takes over hands it on, the caret at the end (its clear button comes
 * with the real one).
 */
export function DeferredSearch(props: Props) {
  const Search = usePart(searchCode) as RealSearch | null;
  const [focused, setFocused] = useState(false);
  const real = useRef<InputRef>(null);

  useEffect(() => {
    if (Search && focused) real.current?.focus({ cursor: 'end' });
  }, [Search, focused]);

  if (Search) return <Search ref={real} {...props} />;

  const { value, placeholder, style, onChange, onSearch } = props;
  const search = (e: Parameters<NonNullable<Props['onSearch']>>[1]) =>
    onSearch?.(value, e, { source: 'input' });
  return (
    <span className="search-stub" style={style} data-testid={props['data-testid']}>
      <input
        type="search"
        className="search-stub-input"
        aria-label={props['aria-label']}
        placeholder={placeholder}
        value={value}
        onChange={onChange}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.nativeEvent.isComposing) search(e);
        }}
      />
      <button type="button" className="search-stub-button" onClick={search}>
        <SearchOutlined />
      </button>
    </span>
  );
}
