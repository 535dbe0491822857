import { queryOptions } from '@tanstack/react-query';
import { api } from './client';
import type { Schemas } from './schema';

/** An item of GET /api/v1/agents/list: an agent company of the caller's company. */
export type AgentOption = Schemas['AgentChoice'];

/** An item of GET /api/v1/customers/list (`id` the customers row, `userId` the owner account). */
export type CustomerOption = Schemas['CustomerPick'];

/**
 * The keys start as the agent and customer screens' own keys do, so a change there (an agent
 * added, a customer removed) refreshes the pickers too.
 */
export const pickerKeys = {
  agents: ['agents', 'options'] as const,
  customers: ['customers', 'options'] as const,
};

/**
 * The agent companies of the device and plant lists' agent filter. A caller who may not read
 * them (no agents screen) simply gets none: the filter then does not show.
 */
export const agentOptionsQuery = queryOptions({
  queryKey: pickerKeys.agents,
  queryFn: async () => {
    try {
      return await api.get('/api/v1/agents/list', { silent: true });
    } catch {
      return [];
    }
  },
  staleTime: 60_000,
});

/** The company's customers, for the gateway list's customer filter. */
export const customerOptionsQuery = queryOptions({
  queryKey: pickerKeys.customers,
  queryFn: () => api.get('/api/v1/customers/list', { silent: true }),
  staleTime: 60_000,
});

/** `agentCompanyId` of a list request: left out for "any" (-1). */
export function agentParam(agentCompanyId: number): { agentCompanyId?: number } {
  return agentCompanyId > 0 ? { agentCompanyId } : {};
}
