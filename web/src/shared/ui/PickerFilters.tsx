import { useQuery } from '@tanstack/react-query';
import { agentOptionsQuery, customerOptionsQuery } from '../api/pickers';
import { useCan } from '../permissions';
import { DeferredSelect as Select } from './DeferredSelect';

/**
 * The agent filter of the plant, gateway and inverter lists: the caller's agent companies;
 * shown only when there are some (or one is chosen). `value` -1 is "any".
 */
export function AgentFilter({
  value,
  onChange,
  width,
  label,
  placeholder,
}: {
  value: number;
  onChange: (agentCompanyId: number) => void;
  width: number | string;
  label: string;
  placeholder: string;
}) {
  const agents = useQuery(agentOptionsQuery);
  const options = agents.data ?? [];
  if (options.length === 0 && value <= 0) return null;
  return (
    <Select
      aria-label={label}
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={placeholder}
      value={value > 0 ? value : undefined}
      onChange={(id?: number) => onChange(id ?? -1)}
      style={{ width }}
      options={options.map((a) => ({ value: a.companyId, label: a.companyName }))}
      data-testid="agent-filter"
    />
  );
}

/**
 * The customer filter of the gateway list (callers with customer.list.view and a company): a
 * customer's account; `value` is the owner's user id, null for "any".
 */
export function CustomerFilter({
  value,
  onChange,
  width,
  label,
  placeholder,
}: {
  value: number | null;
  onChange: (customerId: number | null) => void;
  width: number | string;
  label: string;
  placeholder: string;
}) {
  const may = useCan('customer.list.view');
  const customers = useQuery({ ...customerOptionsQuery, enabled: may });
  // Internal administrators belong to no company and have no customer list to pick from.
  if (!may || (customers.isError && value === null)) return null;
  return (
    <Select
      aria-label={label}
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={placeholder}
      value={value ?? undefined}
      onChange={(id?: number) => onChange(id ?? null)}
      loading={customers.isPending}
      style={{ width }}
      options={(customers.data ?? []).map((c) => ({
        value: c.userId,
        label: c.nickname ? `${c.account} (${c.nickname})` : c.account,
      }))}
      data-testid="customer-filter"
    />
  );
}
