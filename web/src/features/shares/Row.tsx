import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

/** A list row: what it is on the left (wrapping), its actions on the right or below. */
export function Row({
  title,
  lines,
  actions,
  testId,
}: {
  title: ReactNode;
  lines: ReactNode[];
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <Flex
      wrap
      gap={12}
      justify="space-between"
      align="center"
      style={{ width: '100%' }}
      data-testid={testId}
    >
      <Flex vertical gap={4} style={{ flex: '1 1 260px', minWidth: 0 }}>
        <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Typography.Text>
        {lines.map((line, i) => (
          <div key={i} style={{ overflowWrap: 'anywhere' }}>
            {line}
          </div>
        ))}
      </Flex>
      {actions && (
        <Flex wrap gap={8}>
          {actions}
        </Flex>
      )}
    </Flex>
  );
}
