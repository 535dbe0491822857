import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, failure, fakeHttp, networkError } from '@/test/http';
import { renderScreen } from '@/test/render';
import { aUser } from '@/test/user';
import type { Customer, CustomerTypeNode } from './api';
import CustomerListPage from './CustomerListPage';
import CustomerTypesPage from './CustomerTypesPage';

const ann: Customer = {
  id: 5,
  userId: 42,
  account: 'ann@example.com',
  nickname: 'Ann',
  name: '',
  email: 'ann@example.com',
  mobile: '',
  typeId: 1,
  typeName: 'Home',
  remark: 'roof in Lisbon',
  plants: 2,
  createAt: '2026-11-20T10:00:00.000+00:00',
  disabled: false,
};

const type = (id: number, name: string, children: CustomerTypeNode[] = []): CustomerTypeNode => ({
  id,
  code: name.toUpperCase(),
  name,
  remark: '',
  parentId: null,
  customers: id === 1 ? 1 : 0,
  createAt: '2026-11-20T10:00:00.000+00:00',
  children,
});

/** The permission tree: the customer screens, with or without their edit buttons. */
const permissions = (edit: boolean) => ({
  permission: 'user.producer',
  type: 0,
  children: [
    {
      permission: 'customer.list.view',
      type: 0,
      children: edit ? [{ permission: 'customer.edit', type: 1 }] : [],
    },
    {
      permission: 'customer.type.list.view',
      type: 0,
      children: edit ? [{ permission: 'customer.type.edit', type: 1 }] : [],
    },
  ],
});

/** GET /api/v1/user: company staff, or an internal administrator (who belongs to no company). */
const me = (internal: boolean) =>
  aUser({
    id: 7,
    account: internal ? 'admin@example.com' : 'staff@example.com',
    nickname: '',
    name: '',
    email: '',
    mobile: '',
    type: internal ? 'internal' : 'company',
    roleName: internal ? 'internal-admin' : 'company-staff',
    company: internal ? null : { id: 5, name: 'Sunrise', logoUrl: '', iconUrl: '', themeColor: '' },
  });

function serve(customers: Customer[] = [ann]) {
  return fakeHttp({
    'GET /api/v1/customers': () =>
      envelope({ pageNumber: 1, pageSize: 10, total: customers.length, infos: customers }),
    'GET /api/v1/customerTypes': () =>
      envelope([{ id: 1, code: 'HOME', name: 'Home', parentId: null }]),
    'GET /api/v1/customer/types': () =>
      envelope([type(1, 'Home', [type(2, 'Villa')]), type(3, 'Business')]),
    'GET /api/v1/customer/check': () => failure(207, 'Already a company customer'),
    'DELETE /api/v1/customers/delete/{id}': () => envelope(null),
    'POST /api/v1/owner/{id}/disable': () => envelope(null),
    'GET /api/v1/customer/offers': () => envelope([]),
  });
}

interface Who {
  edit?: boolean;
  internal?: boolean;
  route?: string;
}

function show(page: 'list' | 'types', { edit = true, internal = false, route = '/' }: Who = {}) {
  return renderScreen(page === 'list' ? <CustomerListPage /> : <CustomerTypesPage />, {
    route,
    permissions: permissions(edit),
    user: me(internal),
  });
}

const ADMIN = { internal: true };

/** The table row of a cell's text. */
const rowOf = (cells: HTMLElement[]) => cells[0]!.closest('tr') as HTMLElement;

describe('CustomerListPage', () => {
  it('lists customers with their type and plants, without buttons for a viewer', async () => {
    const api = serve();
    await show('list', { edit: false });
    await screen.findAllByText('ann@example.com');
    expect(screen.getByTestId('customer-plants')).toHaveTextContent('2');
    expect(screen.getByTestId('customer-plants').closest('a')).toHaveAttribute(
      'href',
      '/plants?customerId=42',
    );
    expect(screen.getByTestId('customer-plants').closest('tr')).toHaveTextContent('Home');
    expect(screen.queryByText('Add customer')).toBeNull();
    expect(screen.queryByLabelText('Remove')).toBeNull();
    // company staff name no company: the server knows theirs
    expect(api.calls('GET /api/v1/customers')[0]?.query).toEqual({ page: 1, limit: 10, lan: 'en' });
  });

  it('asks for the company an internal administrator names with ?companyId=', async () => {
    const api = serve();
    await show('list', { ...ADMIN, route: '/customer/list?companyId=1' });
    await screen.findAllByText('ann@example.com');
    expect(api.calls('GET /api/v1/customers')[0]?.query).toEqual({
      page: 1,
      limit: 10,
      companyId: 1,
      lan: 'en',
    });
    expect(api.calls('GET /api/v1/customerTypes')[0]?.query).toEqual({ companyId: 1, lan: 'en' });
    fireEvent.click(screen.getByLabelText('Remove'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(api.calls('DELETE /api/v1/customers/delete/{id}')).toMatchObject([
        { params: { id: '5' }, query: { companyId: 1 } },
      ]),
    );
  });

  it('lets an internal administrator disable an owner, and enable a disabled one', async () => {
    const bob: Customer = { ...ann, id: 6, userId: 43, account: 'bob@example.com', disabled: true };
    const api = serve([ann, bob]);
    await show('list', { ...ADMIN, route: '/customer/list?companyId=1' });
    const annRow = rowOf(await screen.findAllByText('ann@example.com'));
    const bobRow = rowOf(screen.getAllByText('bob@example.com'));
    expect(annRow).not.toHaveTextContent('Disabled');
    expect(bobRow).toHaveTextContent('Disabled');
    expect(within(bobRow).getByLabelText('Enable account')).toBeTruthy();
    fireEvent.click(within(annRow).getByLabelText('Disable account'));
    expect((await screen.findAllByText('Disable ann@example.com?')).length).toBeGreaterThan(0);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable account' }));
    await waitFor(() =>
      expect(api.calls('POST /api/v1/owner/{id}/disable')).toMatchObject([
        { params: { id: '42' }, body: { disabled: true } },
      ]),
    );
  });

  it('offers company staff no way to disable an owner', async () => {
    serve();
    await show('list');
    await screen.findAllByText('ann@example.com');
    expect(screen.getAllByLabelText('Remove')).toHaveLength(1);
    expect(screen.queryByLabelText('Disable account')).toBeNull();
  });

  it('tells an internal administrator who names no company to choose one', async () => {
    const api = serve();
    await show('list', { ...ADMIN, route: '/customer/list' });
    expect(await screen.findByText(/belongs to no company/)).toBeTruthy();
    expect(screen.queryByText('The customers could not be loaded')).toBeNull();
    expect(api.calls('GET /api/v1/customers')).toEqual([]);
  });

  it('says so when there are no customers yet', async () => {
    serve([]);
    await show('list');
    expect(await screen.findByText('No customers yet')).toBeTruthy();
    expect(await screen.findAllByText('Add customer')).not.toEqual([]);
  });

  it('shows a failed list with a way to try again', async () => {
    serve().on({ 'GET /api/v1/customers': () => networkError() });
    await show('list');
    expect(await screen.findByText('The customers could not be loaded')).toBeTruthy();
  });

  it('checks the account on blur and shows 207 at the field', async () => {
    const api = serve();
    await show('list');
    fireEvent.click((await screen.findAllByText('Add customer'))[0]!);
    const input = await screen.findByLabelText('Account');
    fireEvent.change(input, { target: { value: 'ann@example.com' } });
    fireEvent.blur(input);
    expect(
      await screen.findByText(
        'This account is already a customer of your company or has been asked to become one',
      ),
    ).toBeTruthy();
    expect(api.calls('GET /api/v1/customer/check')[0]?.query).toEqual({
      account: 'ann@example.com',
      lan: 'en',
    });
    // the refusal is shown at the field, not as a toast
    expect(api.toasts).toEqual([]);
  });

  it('removes a customer after confirmation', async () => {
    const api = serve();
    await show('list');
    fireEvent.click(await screen.findByLabelText('Remove'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Remove customer ann@example.com?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(api.calls('DELETE /api/v1/customers/delete/{id}')).toMatchObject([
        { params: { id: '5' }, query: { lan: 'en' } },
      ]),
    );
    expect(api.calls('DELETE /api/v1/customers/delete/{id}')[0]?.query).not.toHaveProperty(
      'companyId',
    );
  });
});

describe('CustomerTypesPage', () => {
  const rowNames = () => screen.getAllByTestId('type-row-name').map((n) => n.textContent);
  const deleteOf = (name: string) =>
    within(rowOf(screen.getAllByText(name))).getByLabelText('Delete');

  it('shows the tree opened, and refuses to delete a type with subtypes', async () => {
    const api = serve();
    await show('types');
    await screen.findByText('Villa');
    expect(rowNames()).toEqual(['Home', 'Villa', 'Business']);
    fireEvent.click(deleteOf('Home'));
    expect(await screen.findByText('This type has subtypes and cannot be deleted')).toBeTruthy();
    expect(api.calls('POST /api/v1/customerType/{id}/delete')).toEqual([]);
  });

  it('deletes a leaf after confirmation and shows the server refusal', async () => {
    const api = serve().on({
      'POST /api/v1/customerType/{id}/delete': () =>
        failure(4, 'Parameter validation error: customers'),
    });
    await show('types');
    await screen.findByText('Business');
    fireEvent.click(deleteOf('Business'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText('This type still has customers and cannot be deleted'),
    ).toBeTruthy();
    expect(api.calls('POST /api/v1/customerType/{id}/delete')).toMatchObject([
      { params: { id: '3' }, query: { lan: 'en' } },
    ]);
    // code 4 is the screen's to explain: no toast
    expect(api.toasts).toEqual([]);
  });

  it('keeps the company an internal administrator names, in requests and links', async () => {
    const api = serve().on({ 'POST /api/v1/customerType/{id}/delete': () => envelope(null) });
    await show('types', { ...ADMIN, route: '/customer/type?companyId=1' });
    await screen.findByText('Business');
    expect(api.calls('GET /api/v1/customer/types')[0]?.query).toEqual({ companyId: 1, lan: 'en' });
    expect(screen.getAllByTestId('type-row-customers')[0]?.closest('a')).toHaveAttribute(
      'href',
      '/customer/list?typeId=1&companyId=1',
    );
    fireEvent.click(deleteOf('Business'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(api.calls('POST /api/v1/customerType/{id}/delete')).toMatchObject([
        { params: { id: '3' }, query: { companyId: 1 } },
      ]),
    );
  });

  it('tells an internal administrator without ?companyId= to choose a company', async () => {
    serve();
    await show('types', { ...ADMIN, route: '/customer/type' });
    expect(await screen.findByText(/belongs to no company/)).toBeTruthy();
    expect(screen.queryByTestId('customer-types-error')).toBeNull();
  });

  it('has no edit buttons without customer.type.edit', async () => {
    serve();
    await show('types', { edit: false });
    await screen.findByText('Villa');
    expect(screen.queryByText(/^Add/)).toBeNull();
    expect(screen.queryByLabelText('Delete')).toBeNull();
  });
});
