import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import MockAdapter from 'axios-mock-adapter';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { http } from '@/shared/http';
import AgentsPage from './AgentsPage';
import RolesPage from './RolesPage';
import StaffPage from './StaffPage';
import { afterGuard } from '@/test/guard';

const ok = <T,>(data: T): [number, unknown] => [200, { code: 0, msg: 'Success', data }];
const failure = (code: number, msg: string): [number, unknown] => [200, { code, msg, data: null }];
const page = <T,>(infos: T[]) => ({ pageSize: 10, pageNumber: 1, total: infos.length, infos });
const SLOW = { timeout: 10_000 };

const ME = {
  id: 1,
  account: 'boss@example.com',
  nickname: 'Boss',
  name: '',
  email: '',
  mobile: '',
  avatar: '',
  gender: 0,
  readOnly: false,
  roleName: 'company-admin',
  type: 'company',
  userSrc: 'web',
  tempUnit: 'C',
  createAt: '2026-01-01T00:00:00.000+00:00',
  company: { id: 5, name: 'Sunrise', logoUrl: '', iconUrl: '', themeColor: '' },
};

/** A permission tree holding `keys` (menus and buttons flat under the root: enough here). */
function tree(keys: { key: string; type: number }[]) {
  return {
    id: 0,
    name: 'root',
    permission: 'root',
    type: 0,
    children: keys.map((k, i) => ({
      id: i + 1,
      name: k.key,
      permission: k.key,
      type: k.type,
      children: [],
    })),
  };
}

function show(ui: ReactNode, path = '/enterprise/user') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

const STAFF = [
  {
    id: 1,
    account: 'boss@example.com',
    nickname: 'Boss',
    name: 'Bo',
    email: '',
    mobile: '',
    roleId: 2,
    roleName: 'company-admin',
    disabled: false,
    createAt: '2026-01-01T00:00:00.000+00:00',
  },
  {
    id: 9,
    account: 'sam@example.com',
    nickname: 'Sam',
    name: '',
    email: 'sam@example.com',
    mobile: '',
    roleId: 30,
    roleName: 'Ops',
    disabled: true,
    createAt: '2026-02-01T00:00:00.000+00:00',
  },
];

describe('company screens', () => {
  let mock: MockAdapter;
  beforeEach(() => {
    mock = new MockAdapter(http.axios);
    mock.onGet('/api/v1/user').reply(...ok(ME));
    mock.onGet('/api/v1/company/info').reply(
      ...ok({
        id: 5,
        name: 'Sunrise',
        contactName: '',
        email: '',
        phone: '',
        address: '',
        remark: '',
        logoUrl: '',
        iconUrl: '',
        themeColor: '',
        createAt: '2026-01-01T00:00:00.000+00:00',
        adminId: 1,
        adminAccount: 'boss@example.com',
      }),
    );
  });
  afterEach(() => mock.restore());

  it('lists the staff read-only without company.user.edit', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree([{ key: 'company.user', type: 0 }])));
    mock.onGet('/api/v1/company/user/list').reply(...ok(page(STAFF)));
    show(<StaffPage />);
    const rows = await screen.findAllByTestId('staff-account', {}, SLOW);
    expect(rows.map((r) => r.textContent)).toEqual(['boss@example.com', 'sam@example.com']);
    expect(screen.getAllByTestId('staff-role').map((r) => r.textContent)).toEqual([
      'Company administrator',
      'Ops',
    ]);
    expect(screen.queryByTestId('staff-add')).toBeNull();
    expect(screen.queryByTestId('action-edit')).toBeNull();
  });

  it('offers add, edit and delete with company.user.edit; never deleting oneself', async () => {
    mock.onGet('/api/v1/permission').reply(
      ...ok(
        tree([
          { key: 'company.user', type: 0 },
          { key: 'company.user.edit', type: 1 },
          { key: 'company.info', type: 0 },
        ]),
      ),
    );
    mock.onGet('/api/v1/company/user/list').reply(...ok(page(STAFF)));
    show(<StaffPage />);
    expect(await screen.findByTestId('staff-add', {}, SLOW)).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('action-delete')).toHaveLength(2));
    const [mine, sams] = screen.getAllByTestId('action-delete');
    await waitFor(() => expect(mine).toBeDisabled());
    expect(sams).toBeEnabled();
  });

  it("locks the company administrator's role and state for a colleague", async () => {
    mock.onGet('/api/v1/user').reply(...ok({ ...ME, id: 2, account: 'sam@example.com' }));
    mock.onGet('/api/v1/permission').reply(
      ...ok(
        tree([
          { key: 'company.user', type: 0 },
          { key: 'company.user.edit', type: 1 },
          { key: 'company.info', type: 0 },
        ]),
      ),
    );
    mock.onGet('/api/v1/company/user/list').reply(...ok(page(STAFF)));
    mock.onGet('/api/v1/company/roles/assignable').reply(...ok([]));
    show(<StaffPage />);
    await waitFor(() => expect(screen.getAllByTestId('action-edit')).toHaveLength(2), SLOW);
    // the administrator cannot be deleted, and their access is locked in the edit dialog
    await waitFor(() => expect(screen.getAllByTestId('action-delete')[0]).toBeDisabled());
    const [editBoss] = screen.getAllByTestId('action-edit');
    await userEvent.click(editBoss!);
    expect(
      await screen.findByText(/administrator keeps their role and state/, {}, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByTestId('staff-enabled')).toBeDisabled();
  });

  it('says when the staff list cannot be loaded, and when it is empty', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree([{ key: 'company.user', type: 0 }])));
    mock.onGet('/api/v1/company/user/list').replyOnce(...failure(3, 'Request error'));
    mock.onGet('/api/v1/company/user/list').reply(...ok(page([])));
    show(<StaffPage />);
    const problem = await screen.findByTestId('staff-error', {}, SLOW);
    await userEvent.click(within(problem).getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('No staff yet', {}, SLOW)).toBeInTheDocument();
  });

  it('creates a role with the ticked permissions and what they belong to', async () => {
    mock.onGet('/api/v1/permission').reply(
      ...ok(
        tree([
          { key: 'company.role.list.view', type: 0 },
          { key: 'company.role.edit', type: 1 },
        ]),
      ),
    );
    mock.onGet('/api/v1/company/roles').reply(...ok(page([])));
    mock.onGet('/api/v1/company/role/check').reply(...ok(null));
    mock.onGet('/api/v1/permission/company').reply(
      ...ok({
        id: 0,
        name: 'root',
        permission: 'root',
        type: 0,
        children: [
          {
            id: 8,
            name: 'Equipment',
            permission: 'equip.view',
            type: 0,
            children: [
              { id: 9, name: 'Gateways', permission: 'gateway.view', type: 0, children: [] },
              { id: 19, name: 'Inverters', permission: 'inverter.view', type: 0, children: [] },
            ],
          },
        ],
      }),
    );
    let sent: unknown = null;
    mock.onPost('/api/v1/company/role').reply((c) => {
      sent = JSON.parse(String(c.data));
      return ok(40);
    });
    const user = userEvent.setup();
    show(<RolesPage />, '/enterprise/roles');
    expect(await screen.findByText(/No custom roles yet/, {}, SLOW)).toBeInTheDocument();
    await user.click(await screen.findByTestId('role-add', {}, SLOW));
    await user.type(await screen.findByTestId('role-name-input', {}, SLOW), 'Field');
    // nothing ticked: refused on the form
    await user.click(screen.getByTestId('role-submit'));
    expect(await screen.findByText('Choose at least one permission', {}, SLOW)).toBeInTheDocument();
    await user.click(await screen.findByText('Gateways'));
    await afterGuard(screen.getByTestId('role-submit'));
    await user.click(screen.getByTestId('role-submit'));
    await waitFor(() => expect(sent).not.toBeNull(), SLOW);
    expect(sent).toEqual({ name: 'Field', permissions: ['equip.view', 'gateway.view'] });
    // typing with userEvent and the guard's 3 s between the two submits
  }, 60_000);

  it('shows the agents empty state with the add button for company.agent.edit', async () => {
    mock.onGet('/api/v1/permission').reply(
      ...ok(
        tree([
          { key: 'company.agent', type: 0 },
          { key: 'company.agent.edit', type: 1 },
        ]),
      ),
    );
    mock.onGet('/api/v1/agents').reply(...ok(page([])));
    show(<AgentsPage />, '/enterprise/agents');
    expect(await screen.findByText('No agents yet', {}, SLOW)).toBeInTheDocument();
    expect(await screen.findByTestId('agent-add', {}, SLOW)).toBeInTheDocument();
  });
});
