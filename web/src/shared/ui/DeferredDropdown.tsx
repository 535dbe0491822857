import type { DropdownProps } from 'antd';
import {
  cloneElement,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type ReactElement,
  type SyntheticEvent,
} from 'react';
import { dropdownCode } from './dropdownCode';

type Real = ComponentType<DropdownProps>;

type TriggerProps = {
  onPointerEnter?: (e: SyntheticEvent) => void;
  onFocus?: (e: SyntheticEvent) => void;
  onPointerDown?: (e: SyntheticEvent) => void;
  onClick?: (e: SyntheticEvent) => void;
};

/**
 * antd's Dropdown (click trigger), whose code (the dropdown and antd's menu: 20 kB gzip) loads
 * when the trigger is first pointed at, focused or clicked, not with the screen (issue 32: the
 * login page's language switch). Until then the trigger shows alone; a click before the code is
 * in opens the menu as soon as it is, and a trigger that had the focus keeps it (the swap
 * mounts it anew).
 */
export function DeferredDropdown({
  children,
  onOpenChange,
  ...props
}: Omit<DropdownProps, 'children' | 'open'> & { children: ReactElement<TriggerProps> }) {
  const [Dropdown, setDropdown] = useState<Real | null>(dropdownCode.loaded);
  const [open, setOpen] = useState(false);
  const [refocus, setRefocus] = useState(false);
  const box = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    if (refocus) box.current?.querySelector<HTMLElement>('button, a')?.focus();
  }, [refocus]);

  // `display: contents`: the box is there for the focus, not for the layout
  const boxed = (content: ReactElement) => (
    <span ref={box} style={{ display: 'contents' }}>
      {content}
    </span>
  );

  if (Dropdown)
    return boxed(
      <Dropdown
        {...props}
        open={open}
        onOpenChange={(next, info) => {
          setOpen(next);
          onOpenChange?.(next, info);
        }}
      >
        {children}
      </Dropdown>,
    );

  // the trigger element: focused still once the code is in, it gets the focus back
  const fetch = (trigger: EventTarget) =>
    void dropdownCode.load().then((d) => {
      setRefocus(document.activeElement === trigger);
      setDropdown(() => d);
    });
  const own = children.props;
  return boxed(
    cloneElement(children, {
      onPointerEnter: (e) => {
        fetch(e.currentTarget);
        own.onPointerEnter?.(e);
      },
      onFocus: (e) => {
        fetch(e.currentTarget);
        own.onFocus?.(e);
      },
      // Opened on the press, not only on the click: the code may arrive between press and
      // release, and the swap mounts the trigger anew, so that no click follows the press.
      onPointerDown: (e) => {
        setOpen(true);
        fetch(e.currentTarget);
        own.onPointerDown?.(e);
      },
      // a keyboard's Enter or Space clicks without a press
      onClick: (e) => {
        setOpen(true);
        fetch(e.currentTarget);
        own.onClick?.(e);
      },
    }),
  );
}
