import { Modal, type ModalProps } from 'antd';
import type { MouseEvent } from 'react';
import { useClickGuard } from '../hooks/useClickGuard';
import type { Guard } from './guardTypes';

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
