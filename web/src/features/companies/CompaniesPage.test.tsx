import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { ApiError } from '@/shared/http';
import type { CompanyInfo } from './api';
import CompaniesPage from './CompaniesPage';

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

const get = vi.fn();
const post = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: {
    get: (...args: unknown[]) => get(...args) as unknown,
    post: (...args: unknown[]) => post(...args) as unknown,
  },
}));

const acme: CompanyInfo = {
  id: 3,
  name: 'Acme Solar',
  contactName: 'Ann',
  email: 'info@acme.example',
  phone: '',
  address: '',
  remark: '',
  logoUrl: '',
  iconUrl: '',
  themeColor: '',
  createAt: '2026-11-20T10:00:00.000+00:00',
  adminId: 9,
  adminAccount: 'boss@acme.example',
  disabled: false,
  staff: 4,
  plants: 12,
};

const permissions = (edit: boolean) => ({
  permission: 'system.management',
  type: 0,
  children: [
    {
      permission: 'sys.company.view',
      type: 0,
      children: edit ? [{ permission: 'sys.company.edit', type: 1 }] : [],
    },
    // the customer list, which the customers link opens
    { permission: 'customer.list.view', type: 0, children: [] },
  ],
});

function answer(edit: boolean) {
  get.mockImplementation((url: string) => {
    if (url === '/api/v1/permission') return Promise.resolve(permissions(edit));
    if (url === '/api/v1/company/list') return Promise.resolve({ total: 1, infos: [acme] });
    if (url === '/api/v1/company/check')
      return Promise.reject(new ApiError(203, 'Duplicate company name'));
    return Promise.reject(new Error(`unexpected ${url}`));
  });
}

const show = () =>
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <MemoryRouter>
        <App>
          <CompaniesPage />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('CompaniesPage', () => {
  beforeEach(() => {
    get.mockReset();
    post.mockReset();
  });

  it('lists companies with administrator, staff and plants; no buttons without the right', async () => {
    answer(false);
    show();
    const name = await screen.findByTestId('company-row-name');
    expect(name).toHaveTextContent('Acme Solar');
    // The name opens that company's own screens, as an internal administrator sees them.
    expect(name.getAttribute('href')).toMatch(/^\/enterprise\/user\?companyId=\d+$/);
    // …and the link under it that company's customers
    const customers = await screen.findByTestId('company-row-customers');
    expect(customers).toHaveAttribute('href', '/customer/list?companyId=3');
    expect(customers).toHaveAccessibleName('Customers of Acme Solar');
    const table = screen.getByTestId('company-table');
    expect(table).toHaveTextContent('boss@acme.example');
    expect(table).toHaveTextContent('Active');
    expect(table).toHaveTextContent('12');
    expect(screen.queryByTestId('company-add')).toBeNull();
    expect(screen.queryByTestId('action-disable')).toBeNull();
  });

  it('creates a company: the name is checked on blur; an existing account needs no password', async () => {
    answer(true);
    show();
    fireEvent.click(await screen.findByTestId('company-add'));
    const name = await screen.findByTestId('company-name');
    fireEvent.change(name, { target: { value: 'Acme Solar' } });
    fireEvent.blur(name);
    expect(await screen.findByText('Another company has this name')).toBeTruthy();
    expect(screen.getByTestId('company-admin-password')).toBeTruthy();
    fireEvent.click(screen.getByTestId('company-existing'));
    await waitFor(() => expect(screen.queryByTestId('company-admin-password')).toBeNull());
  });

  it('disables a company after confirmation', async () => {
    answer(true);
    post.mockResolvedValue(null);
    show();
    fireEvent.click(await screen.findByTestId('action-disable'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Disable Acme Solar?');
    fireEvent.click(within(dialog).getByTestId('company-toggle-ok'));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/api/v1/company/3/disable', { disabled: true }),
    );
  });
});
