import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import type { StatusCounts as Counts } from './api';
import type { DeviceKind } from './kind';
import { STATUSES } from '@/shared/ui/status';

const CARDS = [
  { key: 'total', value: -1 },
  ...STATUSES.map((s) => ({ key: s.key, value: s.value })),
] as const;

/** One card per status (and the total); a click filters the list by it. */
export function StatusCounts({
  kind,
  counts,
  status,
  onSelect,
}: {
  kind: DeviceKind;
  counts: Counts | undefined;
  status: number;
  onSelect: (status: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Row gutter={[12, 12]}>
      {CARDS.map((c) => (
        <Col key={c.key} xs={12} sm={8} lg={4}>
          <Card
            size="small"
            hoverable
            onClick={() => onSelect(c.value)}
            data-testid={`${kind.testId}-count-${c.key}`}
            style={status === c.value ? { borderColor: '#00cc00' } : undefined}
          >
            <Statistic
              title={t(c.key === 'total' ? `${kind.ns}.count.total` : `${kind.ns}.status.${c.key}`)}
              value={counts ? counts[c.key] : MISSING}
            />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
