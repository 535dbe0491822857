import { ArrowLeftOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { Badge, Button, Card, Empty, Flex, Result, Skeleton, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EChart, type ChartOption } from '@/shared/charts';
import { ErrorCode, isApiError } from '@/shared/http';
import type { DeviceKind } from './kind';
import { statusOf } from '@/shared/ui/status';

/** Back to the device list. */
export function BackButton({ kind }: { kind: DeviceKind }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(kind.route)}>
      {t(`${kind.ns}.back`)}
    </Button>
  );
}

/**
 * What a detail page shows before its device is loaded: a skeleton, "no such device" (code
 * 600) with the way back, or a load failure with a retry.
 */
export function DeviceLoadState({ kind, query }: { kind: DeviceKind; query: UseQueryResult }) {
  const { t } = useTranslation();
  if (!query.isError)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  const missing = isApiError(query.error) && query.error.code === ErrorCode.InverterMissing;
  return (
    <Result
      status={missing ? '404' : 'warning'}
      title={missing ? t(`${kind.ns}.missing`) : t(`${kind.ns}.loadFailed`)}
      extra={
        <Space>
          <BackButton kind={kind} />
          {!missing && <Button onClick={() => void query.refetch()}>{t('common.refresh')}</Button>}
        </Space>
      }
    />
  );
}

/** The title row of a detail page: back, SN, name, status and any tags. */
export function DeviceTitle({
  kind,
  sn,
  alias,
  status,
  children,
}: {
  kind: DeviceKind;
  sn: string;
  alias: string;
  status: number;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const s = statusOf(status);
  return (
    <Flex gap={12} align="center" wrap>
      <BackButton kind={kind} />
      <Typography.Title level={4} style={{ margin: 0 }} data-testid={`${kind.testId}-title`}>
        {sn}
      </Typography.Title>
      {alias && <Typography.Text type="secondary">{alias}</Typography.Text>}
      <Badge color={s.color} text={t(`${kind.ns}.status.${s.key}`)} />
      {children}
    </Flex>
  );
}

/** The body of a history card: a load failure, a skeleton, "no data" or the chart. */
export function ChartBody({
  kind,
  query,
  option,
  label,
}: {
  kind: DeviceKind;
  query: UseQueryResult;
  option: ChartOption | null;
  label: string;
}) {
  const { t } = useTranslation();
  if (query.isError)
    return (
      <Result
        status="warning"
        title={t(`${kind.ns}.loadFailed`)}
        extra={<Button onClick={() => void query.refetch()}>{t('common.refresh')}</Button>}
      />
    );
  if (query.isPending || !option) return <Skeleton active />;
  if ((option.series as unknown[]).length === 0)
    return <Empty description={t(`${kind.ns}.noData`)} />;
  return <EChart option={option} height={340} ariaLabel={label} />;
}
