import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, failure, fakeHttp } from '@/test/http';
import { screenWidth } from '@/test/media';
import { renderScreen } from '@/test/render';
import { aUser } from '@/test/user';
import type { AlarmRule } from './api';
import AlarmRulesPage from './AlarmRulesPage';

const ME = aUser({
  id: 1,
  account: 'boss@example.com',
  nickname: 'Boss',
  roleName: 'company-admin',
  type: 'company',
  createAt: '2026-01-01T00:00:00.000+00:00',
  company: { id: 5, name: 'Sunrise', logoUrl: '', iconUrl: '', themeColor: '' },
});

function tree(keys: string[]) {
  return {
    id: 0,
    name: 'root',
    permission: 'root',
    type: 0,
    children: keys.map((k, i) => ({ id: i + 1, name: k, permission: k, type: 1, children: [] })),
  };
}

const rule = (id: number, kind: AlarmRule['kind'], params: AlarmRule['params']): AlarmRule => ({
  id,
  kind,
  enabled: true,
  severity: kind === 'device_silent' ? 'alarm' : 'warning',
  scope: 'all',
  scopeId: null,
  params,
  createAt: '2027-01-01T00:00:00Z',
  updateAt: '2027-01-01T00:00:00Z',
});

const RULES = [
  rule(1, 'device_silent', { warningCycles: 3, alarmCycles: 6 }),
  rule(2, 'cell_spread', { spreadMv: 200 }),
];

const serve = () =>
  fakeHttp({
    'GET /api/v1/user': () => envelope(ME),
    'GET /api/v1/alarm/rules': () => envelope(RULES),
    'POST /api/v1/alarm/rule/{id}': () => envelope(null),
  });

describe('AlarmRulesPage', () => {
  it('lists the rules with their parameters and switches one off', async () => {
    screenWidth(1440);
    const api = serve();
    await renderScreen(<AlarmRulesPage />, {
      route: '/enterprise/alarmRules',
      permissions: tree(['company.info', 'company.edit']),
      user: ME,
    });
    const rows = () => screen.getByTestId('rules-table').querySelectorAll('tr.ant-table-row');
    await waitFor(() => expect(rows().length).toBe(2));
    const first = rows()[0] as HTMLElement;
    expect(within(first).getByText('Device not reporting')).toBeTruthy();
    expect(within(first).getByText(/Warning after missed cycles 3/)).toBeTruthy();
    fireEvent.click(within(first).getByTestId('rule-enabled'));
    await waitFor(() =>
      expect(api.calls('POST /api/v1/alarm/rule/{id}')[0]?.body).toEqual({ enabled: false }),
    );
  });

  it('checks the parameters in the form as the server does', async () => {
    screenWidth(1440);
    const api = serve();
    await renderScreen(<AlarmRulesPage />, {
      route: '/enterprise/alarmRules',
      permissions: tree(['company.info', 'company.edit']),
      user: ME,
    });
    await waitFor(() =>
      expect(screen.getByTestId('rules-table').querySelectorAll('tr.ant-table-row').length).toBe(2),
    );
    const edits = screen.getAllByTestId('action-edit');
    fireEvent.click(edits[0] as HTMLElement);
    const field = await screen.findByTestId('rule-param-warningCycles');
    const warning = field.tagName === 'INPUT' ? field : field.querySelector('input');
    if (!warning) throw new Error('no input');
    // in its own range, but not below the alarm's 6 cycles
    fireEvent.change(warning, { target: { value: '10' } });
    fireEvent.click(screen.getByTestId('rule-submit'));
    expect(await screen.findByText(/Out of range/)).toBeTruthy();
    expect(api.calls('POST /api/v1/alarm/rule/{id}')).toHaveLength(0);
  });

  it('has no add button nor switches without the right to edit the company', async () => {
    screenWidth(390);
    fakeHttp({
      'GET /api/v1/user': () => envelope(ME),
      'GET /api/v1/alarm/rules': () => envelope(RULES),
    });
    await renderScreen(<AlarmRulesPage />, {
      route: '/enterprise/alarmRules',
      permissions: tree(['company.info']),
      user: ME,
    });
    const cards = await screen.findAllByTestId('rule-card');
    expect(cards.length).toBe(2);
    expect(screen.queryByTestId('rule-add')).toBeNull();
    expect(screen.getAllByTestId('rule-enabled')[0]?.className).toContain('disabled');
  });

  it('says so when the rules cannot be loaded', async () => {
    screenWidth(1440);
    fakeHttp({
      'GET /api/v1/user': () => envelope(ME),
      'GET /api/v1/alarm/rules': () => failure(2, 'No permission'),
    });
    await renderScreen(<AlarmRulesPage />, {
      route: '/enterprise/alarmRules',
      permissions: tree(['company.info']),
      user: ME,
    });
    expect(await screen.findByTestId('rules-error')).toBeTruthy();
  });
});
