import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { ApiError } from '@/shared/http';
import type { Customer, CustomerTypeNode } from './api';
import CustomerListPage from './CustomerListPage';
import CustomerTypesPage from './CustomerTypesPage';

// jsdom has no ResizeObserver; antd's table measures itself with one
if (!('ResizeObserver' in globalThis)) {
  Object.defineProperty(globalThis, 'ResizeObserver', {
    configurable: true,
    value: class {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    },
  });
}

// a loaded machine renders antd slowly: wait longer than testing-library's 1 s
const SLOW = { timeout: 10_000 };

const get = vi.fn();
const post = vi.fn();
const request = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: {
    get: (...args: unknown[]) => get(...args) as unknown,
    post: (...args: unknown[]) => post(...args) as unknown,
    request: (...args: unknown[]) => request(...args) as unknown,
  },
}));

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
const me = (internal: boolean) => ({
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

function answer(edit: boolean, customers: Customer[] = [ann], internal = false) {
  get.mockImplementation((url: string) => {
    if (url === '/api/v1/user') return Promise.resolve(me(internal));
    if (url === '/api/v1/permission') return Promise.resolve(permissions(edit));
    if (url === '/api/v1/customers')
      return Promise.resolve({ total: customers.length, infos: customers });
    if (url === '/api/v1/customerTypes')
      return Promise.resolve([{ id: 1, code: 'HOME', name: 'Home', parentId: null }]);
    if (url === '/api/v1/customer/types')
      return Promise.resolve([type(1, 'Home', [type(2, 'Villa')]), type(3, 'Business')]);
    if (url === '/api/v1/customer/check')
      return Promise.reject(new ApiError(207, 'Already a company customer'));
    return Promise.reject(new Error(`unexpected ${url}`));
  });
}

function show(page: 'list' | 'types', path = '/') {
  return render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <MemoryRouter initialEntries={[path]}>
        <App>{page === 'list' ? <CustomerListPage /> : <CustomerTypesPage />}</App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('CustomerListPage', () => {
  beforeEach(() => {
    get.mockReset();
    post.mockReset();
    request.mockReset();
  });

  it('lists customers with their type and plants, without buttons for a viewer', async () => {
    answer(false);
    show('list');
    expect(await screen.findByTestId('customer-row-account', {}, SLOW)).toHaveTextContent(
      'ann@example.com',
    );
    expect(screen.getByTestId('customer-plants')).toHaveTextContent('2');
    expect(screen.getByTestId('customer-plants').closest('a')).toHaveAttribute(
      'href',
      '/plants?customerId=42',
    );
    expect(screen.getByTestId('customer-table')).toHaveTextContent('Home');
    expect(screen.queryByTestId('customer-add')).toBeNull();
    expect(screen.queryByTestId('action-remove')).toBeNull();
    // company staff name no company: the server knows theirs
    expect(get).toHaveBeenCalledWith('/api/v1/customers', {
      params: { page: 1, limit: 10 },
      silent: true,
    });
  });

  it('asks for the company an internal administrator names with ?companyId=', async () => {
    answer(true, [ann], true);
    request.mockResolvedValue(null);
    show('list', '/customer/list?companyId=1');
    expect(await screen.findByTestId('customer-row-account', {}, SLOW)).toHaveTextContent(
      'ann@example.com',
    );
    expect(get).toHaveBeenCalledWith('/api/v1/customers', {
      params: { page: 1, limit: 10, companyId: 1 },
      silent: true,
    });
    expect(get).toHaveBeenCalledWith('/api/v1/customerTypes', {
      params: { companyId: 1 },
      silent: true,
    });
    fireEvent.click(screen.getByTestId('action-remove'));
    fireEvent.click(await screen.findByTestId('customer-remove-ok', {}, SLOW));
    await waitFor(() =>
      expect(request).toHaveBeenCalledWith({
        method: 'DELETE',
        url: '/api/v1/customers/delete/5',
        params: { companyId: 1 },
      }),
    );
  });

  it('lets an internal administrator disable an owner, and enable a disabled one', async () => {
    const bob: Customer = { ...ann, id: 6, userId: 43, account: 'bob@example.com', disabled: true };
    answer(true, [ann, bob], true);
    post.mockResolvedValue(null);
    show('list', '/customer/list?companyId=1');
    const rows = await screen.findAllByTestId('customer-row-account', {}, SLOW);
    expect(rows[0]).not.toHaveTextContent('Disabled');
    expect(rows[1]).toHaveTextContent('Disabled');
    const toggles = screen.getAllByTestId('action-toggle');
    expect(toggles[0]).toHaveAttribute('aria-label', 'Disable account');
    expect(toggles[1]).toHaveAttribute('aria-label', 'Enable account');
    fireEvent.click(toggles[0]!);
    expect(
      (await screen.findAllByText('Disable ann@example.com?', {}, SLOW)).length,
    ).toBeGreaterThan(0);
    fireEvent.click(await screen.findByTestId('customer-toggle-ok', {}, SLOW));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/api/v1/owner/42/disable', { disabled: true }),
    );
  });

  it('offers company staff no way to disable an owner', async () => {
    answer(true);
    show('list');
    await screen.findByTestId('customer-row-account', {}, SLOW);
    expect(screen.getAllByTestId('action-remove')).toHaveLength(1);
    expect(screen.queryByTestId('action-toggle')).toBeNull();
  });

  it('tells an internal administrator who names no company to choose one', async () => {
    answer(true, [ann], true);
    show('list', '/customer/list');
    expect(await screen.findByTestId('no-company', {}, SLOW)).toHaveTextContent(
      'belongs to no company',
    );
    expect(screen.queryByTestId('customers-error')).toBeNull();
    expect(get).not.toHaveBeenCalledWith('/api/v1/customers', expect.anything());
  });

  it('says so when there are no customers yet', async () => {
    answer(true, []);
    show('list');
    expect(await screen.findByText('No customers yet', {}, SLOW)).toBeTruthy();
    expect(await screen.findByTestId('customer-add-empty', {}, SLOW)).toBeTruthy();
  });

  it('shows a failed list with a way to try again', async () => {
    get.mockImplementation((url: string) =>
      url === '/api/v1/user'
        ? Promise.resolve(me(false))
        : url === '/api/v1/permission'
          ? Promise.resolve(permissions(true))
          : Promise.reject(new Error('Network exception')),
    );
    show('list');
    expect(await screen.findByTestId('customers-error', {}, SLOW)).toHaveTextContent(
      'The customers could not be loaded',
    );
  });

  it('checks the account on blur and shows 207 at the field', async () => {
    answer(true);
    show('list');
    fireEvent.click(await screen.findByTestId('customer-add', {}, SLOW));
    const input = await screen.findByTestId('customer-account', {}, SLOW);
    fireEvent.change(input, { target: { value: 'ann@example.com' } });
    fireEvent.blur(input);
    expect(
      await screen.findByText(
        'This account is already a customer of your company or has been asked to become one',
        {},
        SLOW,
      ),
    ).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/api/v1/customer/check', {
      params: { account: 'ann@example.com' },
      handledCodes: [105, 4, 207],
    });
  });

  it('removes a customer after confirmation', async () => {
    answer(true);
    request.mockResolvedValue(null);
    show('list');
    fireEvent.click(await screen.findByTestId('action-remove', {}, SLOW));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    expect(dialog).toHaveTextContent('Remove customer ann@example.com?');
    fireEvent.click(within(dialog).getByTestId('customer-remove-ok'));
    await waitFor(() =>
      expect(request).toHaveBeenCalledWith({
        method: 'DELETE',
        url: '/api/v1/customers/delete/5',
      }),
    );
  });
});

describe('CustomerTypesPage', () => {
  beforeEach(() => {
    get.mockReset();
    post.mockReset();
  });

  it('shows the tree opened, and refuses to delete a type with subtypes', async () => {
    answer(true);
    show('types');
    await screen.findByText('Villa', {}, SLOW);
    expect(screen.getAllByTestId('type-row-name').map((n) => n.textContent)).toEqual([
      'Home',
      'Villa',
      'Business',
    ]);
    fireEvent.click(screen.getAllByTestId('action-delete')[0] as HTMLElement);
    expect(
      await screen.findByText('This type has subtypes and cannot be deleted', {}, SLOW),
    ).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
  });

  it('deletes a leaf after confirmation and shows the server refusal', async () => {
    answer(true);
    post.mockRejectedValue(new ApiError(4, 'Parameter validation error: customers'));
    show('types');
    await screen.findByText('Business', {}, SLOW);
    fireEvent.click(screen.getAllByTestId('action-delete')[2] as HTMLElement);
    fireEvent.click(await screen.findByTestId('type-delete-ok', {}, SLOW));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/api/v1/customerType/3/delete', {}, { handledCodes: [4] }),
    );
    expect(
      await screen.findByText('This type still has customers and cannot be deleted', {}, SLOW),
    ).toBeTruthy();
  });

  it('keeps the company an internal administrator names, in requests and links', async () => {
    answer(true, [ann], true);
    post.mockResolvedValue(null);
    show('types', '/customer/type?companyId=1');
    await screen.findByText('Business', {}, SLOW);
    expect(get).toHaveBeenCalledWith('/api/v1/customer/types', {
      params: { companyId: 1 },
      silent: true,
    });
    expect(screen.getAllByTestId('type-row-customers')[0]?.closest('a')).toHaveAttribute(
      'href',
      '/customer/list?typeId=1&companyId=1',
    );
    fireEvent.click(screen.getAllByTestId('action-delete')[2] as HTMLElement);
    fireEvent.click(await screen.findByTestId('type-delete-ok', {}, SLOW));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/api/v1/customerType/3/delete',
        {},
        { handledCodes: [4], params: { companyId: 1 } },
      ),
    );
  });

  it('tells an internal administrator without ?companyId= to choose a company', async () => {
    answer(true, [ann], true);
    show('types', '/customer/type');
    expect(await screen.findByTestId('no-company', {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId('customer-types-error')).toBeNull();
  });

  it('has no edit buttons without customer.type.edit', async () => {
    answer(false);
    show('types');
    await screen.findByText('Villa', {}, SLOW);
    expect(screen.queryByTestId('type-add')).toBeNull();
    expect(screen.queryByTestId('action-delete')).toBeNull();
  });
});
