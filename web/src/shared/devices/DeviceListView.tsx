import { Button, Card, Empty, Flex, Result, Table, Typography, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DeviceRowBase } from './api';
import { DeviceFilters } from './DeviceFilters';
import type { DeviceKind } from './kind';
import { StatusCounts } from './StatusCounts';
import type { DeviceList } from './useDeviceList';

/** A device list screen: status counts, filters and the paged table of the given columns. */
export function DeviceListView<Row extends DeviceRowBase>({
  kind,
  state,
  columns,
  scrollX,
}: {
  kind: DeviceKind;
  state: DeviceList<Row>;
  columns: TableProps<Row>['columns'];
  scrollX: number;
}) {
  const { t } = useTranslation();
  const { query, list, filtered } = state;
  return (
    <Flex vertical gap={16}>
      <StatusCounts
        kind={kind}
        counts={state.counts.data}
        status={query.status}
        onSelect={(status) => state.update({ status })}
      />
      <Card
        title={
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t(`${kind.ns}.title`)}
          </Typography.Title>
        }
      >
        <DeviceFilters kind={kind} state={state} />
        {list.isError ? (
          <Result
            status="warning"
            title={t(`${kind.ns}.loadFailed`)}
            extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
          />
        ) : (
          <Table<Row>
            rowKey="id"
            size="middle"
            data-testid={`${kind.testId}-table`}
            loading={list.isFetching}
            columns={columns}
            dataSource={list.data?.infos ?? []}
            scroll={{ x: scrollX }}
            locale={{
              emptyText: (
                <Empty
                  description={filtered ? t(`${kind.ns}.emptyFiltered`) : t(`${kind.ns}.empty`)}
                />
              ),
            }}
            pagination={{
              current: query.page,
              pageSize: query.limit,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              showTotal: (total) => t(`${kind.ns}.total`, { total }),
              onChange: state.setPage,
            }}
          />
        )}
      </Card>
    </Flex>
  );
}
