import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { plantOptionsQuery } from './api';

/** A plant of the caller's, found by typing its name (the first 100 matches are offered). */
export function PlantPicker({
  value,
  onChange,
  width,
  testId,
  allowClear = true,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
  width: number | string;
  testId: string;
  allowClear?: boolean;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const plants = useQuery(plantOptionsQuery(search));
  return (
    <Select<number>
      allowClear={allowClear}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      placeholder={t('workdata.filter.plant')}
      aria-label={t('workdata.filter.plant')}
      value={value ?? undefined}
      onChange={(v) => onChange(v ?? null)}
      options={(plants.data?.infos ?? []).map((p) => ({ value: p.id, label: p.name }))}
      loading={plants.isFetching}
      notFoundContent={plants.isError ? t('workdata.loadFailed') : undefined}
      style={{ width }}
      data-testid={testId}
    />
  );
}
