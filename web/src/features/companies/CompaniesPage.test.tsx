import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, failure, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { CompanyInfo } from './api';
import CompaniesPage from './CompaniesPage';

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

function serve() {
  return fakeHttp({
    'GET /api/v1/company/list': () =>
      envelope({ pageNumber: 1, pageSize: 10, total: 1, infos: [acme] }),
    'GET /api/v1/company/check': () => failure(203, 'Duplicate company name'),
  });
}

const show = (edit: boolean) =>
  renderScreen(<CompaniesPage />, { route: '/sys/company', permissions: permissions(edit) });

describe('CompaniesPage', () => {
  it('lists companies with administrator, staff and plants; no buttons without the right', async () => {
    serve();
    await show(false);
    const name = await screen.findByRole('link', { name: 'Acme Solar' });
    // The name opens that company's own screens, as an internal administrator sees them.
    expect(name.getAttribute('href')).toMatch(/^\/enterprise\/user\?companyId=\d+$/);
    // …and the link under it that company's customers
    const customers = screen.getByRole('link', { name: 'Customers of Acme Solar' });
    expect(customers).toHaveAttribute('href', '/customer/list?companyId=3');
    const table = name.closest('table') as HTMLElement;
    expect(table).toHaveTextContent('boss@acme.example');
    expect(table).toHaveTextContent('Active');
    expect(table).toHaveTextContent('12');
    expect(screen.queryByText('Create company')).toBeNull();
    expect(screen.queryByLabelText('Disable')).toBeNull();
  });

  it('creates a company: the name is checked on blur; an existing account needs no password', async () => {
    serve();
    await show(true);
    fireEvent.click((await screen.findAllByText('Create company'))[0]!);
    const name = await screen.findByLabelText('Company name');
    fireEvent.change(name, { target: { value: 'Acme Solar' } });
    fireEvent.blur(name);
    expect(await screen.findByText('Another company has this name')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: 'Existing account' }));
    await waitFor(() => expect(screen.queryByLabelText('Password')).toBeNull());
  });

  it('disables a company after confirmation', async () => {
    const api = serve().on({ 'POST /api/v1/company/{id}/disable': () => envelope(null) });
    await show(true);
    fireEvent.click(await screen.findByLabelText('Disable'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Disable Acme Solar?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() =>
      expect(api.calls('POST /api/v1/company/{id}/disable')).toMatchObject([
        { params: { id: '3' }, body: { disabled: true } },
      ]),
    );
  });
});
