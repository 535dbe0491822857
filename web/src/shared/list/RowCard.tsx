import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

export interface RowCardField {
  label: string;
  value: ReactNode;
}

export interface RowCardProps {
  /** The row's name: a link to it, with what belongs beside it. */
  title: ReactNode;
  /** Top right: the row's status. */
  status?: ReactNode;
  /** Label and value lines under the title. */
  fields: RowCardField[];
  testId: string;
}

/**
 * A row of a list as a phone shows it: the name and status on top, then one labelled line per
 * figure. A phone has room for two or three table columns; a card shows them all.
 */
export function RowCard({ title, status, fields, testId }: RowCardProps) {
  return (
    <Flex vertical gap={4} data-testid={testId}>
      <Flex justify="space-between" align="center" gap={8}>
        <span style={{ minWidth: 0, fontWeight: 500, overflowWrap: 'anywhere' }}>{title}</span>
        {status}
      </Flex>
      {fields.map((f) => (
        <Flex key={f.label} justify="space-between" align="baseline" gap={12}>
          <Typography.Text type="secondary" style={{ flex: 'none' }}>
            {f.label}
          </Typography.Text>
          <span style={{ minWidth: 0, textAlign: 'right', overflowWrap: 'anywhere' }}>
            {f.value}
          </span>
        </Flex>
      ))}
    </Flex>
  );
}
