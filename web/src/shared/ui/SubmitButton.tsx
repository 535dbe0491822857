import { Button, type ButtonProps } from 'antd';
import type { MouseEvent } from 'react';
import { CLICK_GUARD_MS, useClickGuard } from '../hooks/useClickGuard';
import type { Guard } from './guardTypes';

/** An antd Button (`htmlType="submit"`, or an `onClick` that writes) with the guard. */
export function SubmitButton({
  onClick,
  disabled,
  guardMs = CLICK_GUARD_MS,
  ...rest
}: ButtonProps & Guard) {
  const [guarded, locked] = useClickGuard((e: MouseEvent<HTMLElement>) => {
    onClick?.(e as MouseEvent<HTMLButtonElement & HTMLAnchorElement>);
    return true;
  }, guardMs);
  return (
    <Button
      {...rest}
      disabled={disabled || locked}
      onClick={(e) => {
        // an ignored click must not submit the form either
        if (!guarded(e)) e.preventDefault();
      }}
    />
  );
}
