import { Card, Empty, List } from 'antd';
import type { ReactNode } from 'react';

/** One part of the screen: a titled card with a list that stacks on a phone. */
export function Section<T>({
  title,
  items,
  empty,
  rowKey,
  render,
  testId,
  help,
}: {
  title: ReactNode;
  items: T[];
  empty: string;
  rowKey: (item: T) => string | number;
  render: (item: T) => ReactNode;
  testId: string;
  help?: ReactNode;
}) {
  return (
    <Card size="small" title={title} data-testid={testId}>
      {help}
      <List<T>
        dataSource={items}
        rowKey={rowKey}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
        renderItem={(item) => <List.Item>{render(item)}</List.Item>}
      />
    </Card>
  );
}
