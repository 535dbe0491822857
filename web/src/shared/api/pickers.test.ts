import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../http';
import { agentOptionsQuery, agentParam } from './pickers';

const get = vi.fn();
vi.mock('../http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../http')>()),
  http: { get: (...args: unknown[]) => get(...args) as unknown },
}));

describe('list pickers', () => {
  beforeEach(() => get.mockReset());

  it('sends agentCompanyId only for a chosen agent', () => {
    expect(agentParam(-1)).toEqual({});
    expect(agentParam(12)).toEqual({ agentCompanyId: 12 });
  });

  it('offers no agents to a caller who may not read them', async () => {
    get.mockRejectedValueOnce(new ApiError(2, 'No permission'));
    const fetchAgents = agentOptionsQuery.queryFn as () => Promise<unknown>;
    await expect(fetchAgents()).resolves.toEqual([]);
    get.mockResolvedValueOnce([{ companyId: 3, companyName: 'Sun Partners' }]);
    await expect(fetchAgents()).resolves.toEqual([{ companyId: 3, companyName: 'Sun Partners' }]);
    expect(get).toHaveBeenLastCalledWith('/api/v1/agents/list', { silent: true });
  });
});
