import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { figure, type MeasuredCapacity } from './model';

/** How many of the span's measured capacities are listed, newest first. */
const SHOWN = 10;

/** The span's measured capacities with their swing and window, newest first. */
export function MeasuredList({ cycles }: { cycles: MeasuredCapacity[] }) {
  const { t } = useTranslation();
  if (cycles.length === 0) return null;
  const shown = [...cycles].reverse().slice(0, SHOWN);
  return (
    <Flex vertical gap={8} data-testid="health-measured-list">
      <Typography.Text strong>{t('batteries.health.list.title')}</Typography.Text>
      {shown.map((c) => (
        <div key={c.end} className="health-cycle">
          <Typography.Text>
            {`${figure(c.measuredAh, 1, 'Ah')} · ${t('batteries.health.list.vsBms', {
              bms: figure(c.bmsAh, 1, 'Ah'),
              ratio: figure(c.ratioPct, 1, '%'),
            })}`}
          </Typography.Text>
          <br />
          <Typography.Text type="secondary" className="health-basis">
            {t('batteries.health.list.window', {
              kind: t(`batteries.health.kind.${c.kind}`),
              from: figure(c.socFrom, 0, '%'),
              to: figure(c.socTo, 0, '%'),
              start: c.start,
              end: c.end,
              moved: figure(c.movedAh, 1, 'Ah'),
            })}
          </Typography.Text>
        </div>
      ))}
    </Flex>
  );
}
