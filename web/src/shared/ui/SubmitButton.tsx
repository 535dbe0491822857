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
        const accepted = guarded(e);
        if (rest.htmlType !== 'submit') return;
        // The browser submits after the click's handlers and microtasks, when React has
        // already disabled the button for the guard, and a disabled button submits nothing:
        // so the accepted click submits the form itself, now, and an ignored one not at all.
        const button = e.currentTarget as HTMLButtonElement;
        const submit = accepted && !e.defaultPrevented;
        e.preventDefault();
        if (submit) button.form?.requestSubmit(button);
      }}
    />
  );
}
