import { Button } from 'antd';
import type { ReactNode } from 'react';

/** A row's name that opens its detail: a link that wraps like the text around it. */
export function OpenLink({
  onOpen,
  testId,
  children,
}: {
  onOpen: () => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Button
      type="link"
      style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start' }}
      onClick={onOpen}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}
