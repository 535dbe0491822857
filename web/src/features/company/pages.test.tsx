import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { afterGuard } from '@/test/guard';
import { envelope, failure, fakeHttp, type Routes } from '@/test/http';
import { renderScreen } from '@/test/render';
import { aUser } from '@/test/user';
import AgentsPage from './AgentsPage';
import RolesPage from './RolesPage';
import StaffPage from './StaffPage';

const page = <T,>(infos: T[]) => ({ pageSize: 10, pageNumber: 1, total: infos.length, infos });

const ME = aUser({
  id: 1,
  account: 'boss@example.com',
  nickname: 'Boss',
  roleName: 'company-admin',
  type: 'company',
  createAt: '2026-01-01T00:00:00.000+00:00',
  company: { id: 5, name: 'Sunrise', logoUrl: '', iconUrl: '', themeColor: '' },
});

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

/** A company screen for a user holding `keys`. */
const show = (ui: ReactNode, keys: { key: string; type: number }[], route = '/enterprise/user') =>
  renderScreen(ui, { route, permissions: tree(keys) });

/** The server: the signed-in user (ME unless `routes` say), their company, and `routes`. */
const serve = (routes: Routes = {}) =>
  fakeHttp({
    'GET /api/v1/user': () => envelope(ME),
    'GET /api/v1/company/info': () =>
      envelope({
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
        disabled: false,
        plants: 0,
        staff: 2,
      }),
    ...routes,
  });

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

const STAFF_EDIT = [
  { key: 'company.user', type: 0 },
  { key: 'company.user.edit', type: 1 },
  { key: 'company.info', type: 0 },
];

describe('company screens', () => {
  it('lists the staff read-only without company.user.edit', async () => {
    serve({ 'GET /api/v1/company/user/list': () => envelope(page(STAFF)) });
    await show(<StaffPage />, [{ key: 'company.user', type: 0 }]);
    const rows = await screen.findAllByTestId('staff-account');
    expect(rows.map((r) => r.textContent)).toEqual(['boss@example.com', 'sam@example.com']);
    expect(screen.getAllByTestId('staff-role').map((r) => r.textContent)).toEqual([
      'Company administrator',
      'Ops',
    ]);
    expect(screen.queryByTestId('staff-add')).toBeNull();
    expect(screen.queryByTestId('action-edit')).toBeNull();
  });

  it('offers add, edit and delete with company.user.edit; never deleting oneself', async () => {
    serve({ 'GET /api/v1/company/user/list': () => envelope(page(STAFF)) });
    await show(<StaffPage />, STAFF_EDIT);
    expect(await screen.findByTestId('staff-add')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('action-delete')).toHaveLength(2));
    const [mine, sams] = screen.getAllByTestId('action-delete');
    await waitFor(() => expect(mine).toBeDisabled());
    expect(sams).toBeEnabled();
  });

  it("locks the company administrator's role and state for a colleague", async () => {
    serve({
      'GET /api/v1/user': () => envelope({ ...ME, id: 2, account: 'sam@example.com' }),
      'GET /api/v1/company/user/list': () => envelope(page(STAFF)),
      'GET /api/v1/company/roles/assignable': () => envelope([]),
    });
    await show(<StaffPage />, STAFF_EDIT);
    await waitFor(() => expect(screen.getAllByTestId('action-edit')).toHaveLength(2));
    // the administrator cannot be deleted, and their access is locked in the edit dialog
    await waitFor(() => expect(screen.getAllByTestId('action-delete')[0]).toBeDisabled());
    const [editBoss] = screen.getAllByTestId('action-edit');
    await userEvent.click(editBoss!);
    expect(await screen.findByText(/administrator keeps their role and state/)).toBeInTheDocument();
    expect(screen.getByTestId('staff-enabled')).toBeDisabled();
  });

  it('says when the staff list cannot be loaded, and when it is empty', async () => {
    let lists = 0;
    serve({
      'GET /api/v1/company/user/list': () =>
        lists++ === 0 ? failure(3, 'Request error') : envelope(page([])),
    });
    await show(<StaffPage />, [{ key: 'company.user', type: 0 }]);
    const problem = await screen.findByTestId('staff-error');
    await userEvent.click(within(problem).getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('No staff yet')).toBeInTheDocument();
  });

  it('creates a role with the ticked permissions and what they belong to', async () => {
    const api = serve({
      'GET /api/v1/company/roles': () => envelope(page([])),
      'GET /api/v1/company/role/check': () => envelope(null),
      'POST /api/v1/company/role': () => envelope(40),
      'GET /api/v1/permission/company': () =>
        envelope({
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
    });
    const sent = () => api.calls('POST /api/v1/company/role')[0]?.body;
    const user = userEvent.setup();
    await show(
      <RolesPage />,
      [
        { key: 'company.role.list.view', type: 0 },
        { key: 'company.role.edit', type: 1 },
      ],
      '/enterprise/roles',
    );
    expect(await screen.findByText(/No custom roles yet/)).toBeInTheDocument();
    await user.click(await screen.findByTestId('role-add'));
    await user.type(await screen.findByTestId('role-name-input'), 'Field');
    // nothing ticked: refused on the form
    await user.click(screen.getByTestId('role-submit'));
    expect(await screen.findByText('Choose at least one permission')).toBeInTheDocument();
    await user.click(await screen.findByText('Gateways'));
    await afterGuard(screen.getByTestId('role-submit'));
    await user.click(screen.getByTestId('role-submit'));
    await waitFor(() => expect(sent()).toBeDefined());
    expect(sent()).toEqual({ name: 'Field', permissions: ['equip.view', 'gateway.view'] });
    // typing with userEvent and the guard's 3 s between the two submits
  });

  it('shows the agents empty state with the add button for company.agent.edit', async () => {
    serve({ 'GET /api/v1/agents': () => envelope(page([])) });
    await show(
      <AgentsPage />,
      [
        { key: 'company.agent', type: 0 },
        { key: 'company.agent.edit', type: 1 },
      ],
      '/enterprise/agents',
    );
    expect(await screen.findByText('No agents yet')).toBeInTheDocument();
    expect(await screen.findByTestId('agent-add')).toBeInTheDocument();
  });
});
