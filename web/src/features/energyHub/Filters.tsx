import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNarrow } from '@/shared/ui/useNarrow';
import { plantOptionsQuery } from '@/shared/api/plants';
import { programsQuery } from './api';

interface FilterProps {
  value: number | null;
  onChange: (id: number | null) => void;
  /** Width on a desktop; a phone gives the whole row. */
  width: number;
  testId?: string;
}

/** "All programmes" or one, for the enrollment and event lists. */
export function ProgramFilter({ value, onChange, width, testId }: FilterProps) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const programs = useQuery(programsQuery());
  return (
    <Select
      aria-label={t('energyHub.program')}
      placeholder={t('energyHub.allPrograms')}
      allowClear
      value={value ?? undefined}
      onChange={(id?: number) => onChange(id ?? null)}
      loading={programs.isPending}
      style={{ width: phone ? '100%' : width }}
      options={(programs.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
      data-testid={testId}
    />
  );
}

/** "All plants" or one of the caller's, searchable by name. */
export function PlantFilter({ value, onChange, width, testId }: FilterProps) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const plants = useQuery(plantOptionsQuery);
  return (
    <Select
      aria-label={t('energyHub.plant')}
      placeholder={t('energyHub.allPlants')}
      allowClear
      showSearch
      optionFilterProp="label"
      value={value ?? undefined}
      onChange={(id?: number) => onChange(id ?? null)}
      loading={plants.isPending}
      style={{ width: phone ? '100%' : width }}
      options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
      data-testid={testId}
    />
  );
}
