import {
  Button,
  Modal,
  Popconfirm,
  type ButtonProps,
  type ModalProps,
  type PopconfirmProps,
} from 'antd';
import type { MouseEvent } from 'react';
import { CLICK_GUARD_MS, useClickGuard } from '../hooks/useClickGuard';

/*
 * The double-click guard on every button that submits or writes (docs/overview.md): after a
 * click the button is disabled for 3000 ms and further clicks are ignored, so a quick second
 * click cannot send the same request twice. eslint (eslint.config.js) refuses a bare antd
 * submit button, a Modal with `onOk`, a Popconfirm, or a Button whose `onClick` calls a
 * mutation, so new code gets the guard by default. `modal.confirm` dialogs need none: antd
 * ignores clicks on their OK button while its promise runs, and closes them after.
 */

interface Guard {
  /** How long the button stays disabled after a click. */
  guardMs?: number;
}

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

/** An antd Modal whose OK button (`onOk`) has the guard; `confirmLoading` still shows. */
export function GuardedModal({ onOk, okButtonProps, guardMs, ...rest }: ModalProps & Guard) {
  const [guarded, locked] = useClickGuard((e: MouseEvent<HTMLButtonElement>) => onOk?.(e), guardMs);
  return (
    <Modal
      {...rest}
      onOk={guarded}
      okButtonProps={{ ...okButtonProps, disabled: Boolean(okButtonProps?.disabled) || locked }}
    />
  );
}

/** An antd Popconfirm whose confirm button (`onConfirm`) has the guard. */
export function GuardedPopconfirm({
  onConfirm,
  okButtonProps,
  guardMs,
  ...rest
}: PopconfirmProps & Guard) {
  const [guarded, locked] = useClickGuard((e?: MouseEvent<HTMLElement>) => onConfirm?.(e), guardMs);
  return (
    <Popconfirm
      {...rest}
      onConfirm={guarded}
      okButtonProps={{ ...okButtonProps, disabled: Boolean(okButtonProps?.disabled) || locked }}
    />
  );
}
