import { describe, expect, it } from 'vitest';
import { envelope, failure, fakeHttp } from '@/test/http';
import { agentOptionsQuery, agentParam } from './pickers';

describe('list pickers', () => {
  it('sends agentCompanyId only for a chosen agent', () => {
    expect(agentParam(-1)).toEqual({});
    expect(agentParam(12)).toEqual({ agentCompanyId: 12 });
  });

  it('offers no agents to a caller who may not read them', async () => {
    const agents = [{ companyId: 3, companyName: 'Sun Partners' }];
    const answers = [failure(2, 'No permission'), envelope(agents)];
    const api = fakeHttp({ 'GET /api/v1/agents/list': () => answers.shift()! });
    const fetchAgents = agentOptionsQuery.queryFn as () => Promise<unknown>;
    await expect(fetchAgents()).resolves.toEqual([]);
    // the refusal is quiet: the picker just offers nothing
    expect(api.toasts).toEqual([]);
    await expect(fetchAgents()).resolves.toEqual(agents);
  });
});
