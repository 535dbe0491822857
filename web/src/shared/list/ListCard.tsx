import { Card, Flex, Input, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useNarrow } from '@/shared/ui/useNarrow';

export interface ListSearch {
  placeholder: string;
  /** The draft being typed; `onSearch` applies it. */
  value: string;
  onChange: (value: string) => void;
  onSearch: (value: string) => void;
  /** Width on a desktop; a phone gives the whole row. */
  width: number;
  testId: string;
}

export interface ListCardProps {
  title: ReactNode;
  titleTestId: string;
  /** The card's actions (an add button, for example). */
  extra?: ReactNode;
  search: ListSearch;
  /** More filters after the search box. */
  filters?: ReactNode;
  children: ReactNode;
}

/** The frame of a list screen: title and actions, the search box and filters, then the list. */
export function ListCard({ title, titleTestId, extra, search, filters, children }: ListCardProps) {
  const phone = useNarrow();
  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid={titleTestId}>
          {title}
        </Typography.Title>
      }
      extra={extra}
    >
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={search.placeholder}
          aria-label={search.placeholder}
          value={search.value}
          onChange={(e) => search.onChange(e.target.value)}
          onSearch={search.onSearch}
          style={{ width: phone ? '100%' : search.width }}
          data-testid={search.testId}
        />
        {filters}
      </Flex>
      {children}
    </Card>
  );
}
