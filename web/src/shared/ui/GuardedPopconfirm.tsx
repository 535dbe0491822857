import { Popconfirm, type PopconfirmProps } from 'antd';
import type { MouseEvent } from 'react';
import { useClickGuard } from '../hooks/useClickGuard';
import type { Guard } from './guardTypes';

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
