import { MISSING } from '@/shared/format/number';
import { formatPlantTime } from '@/shared/format/time';

/**
 * A device or plant time in the plant's zone, named (`formatPlantTime`), wrapped only between
 * its date-and-time and its zone: a narrow column never shows "2026-11-" and "24" on two lines.
 */
export function PlantTime({
  value,
  zone,
  seconds = true,
  testId,
}: {
  value: string | number | null | undefined;
  zone: string | null | undefined;
  seconds?: boolean;
  testId?: string;
}) {
  const text = formatPlantTime(value, zone, { seconds });
  if (text === MISSING) return <span data-testid={testId}>{MISSING}</span>;
  const cut = text.lastIndexOf(' (');
  return (
    <span data-testid={testId}>
      <span style={{ whiteSpace: 'nowrap' }}>{text.slice(0, cut)}</span>{' '}
      <span style={{ whiteSpace: 'nowrap' }}>{text.slice(cut + 1)}</span>
    </span>
  );
}
