import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, failure, fakeHttp, type Routes } from '@/test/http';
import { renderScreen } from '@/test/render';
import { gatewayRow } from './fixtures';
import SystemGatewaysPage from './SystemGatewaysPage';
import { afterGuard } from '@/test/guard';

const stock = gatewayRow();
const bound = gatewayRow({
  id: 8,
  sn: 'GW-BOUND-02',
  plantId: 3,
  plantName: 'Sunny Roof',
  online: true,
  status: 1,
  customerId: 11,
  customerName: 'Olivia',
});

const permissions = (edit: boolean) => ({
  permission: 'system.management',
  type: 0,
  children: [
    {
      permission: 'sys.gateway.view',
      type: 0,
      children: edit ? [{ permission: 'sys.gateway.edit', type: 1 }] : [],
    },
  ],
});

/** The server of the screen: `rows` in the registry, `more` routes added or replaced. */
function serve(rows = [stock, bound], more: Routes = {}) {
  return fakeHttp({
    'GET /api/v1/gateways': ({ query }) => {
      const keyword = query.keyword;
      const infos = keyword ? rows.filter((r) => r.sn.includes(String(keyword))) : rows;
      return envelope({ pageNumber: 1, pageSize: 10, total: infos.length, infos });
    },
    'GET /api/v1/logger/functions': () =>
      envelope([
        {
          code: 'modbus-default',
          name: 'Default',
          family: 'inverter',
          builtin: true,
          points: null,
          updateAt: '2026-01-05T10:00:00Z',
          version: null,
        },
      ]),
    'GET /api/v1/company/list': () =>
      envelope({
        pageNumber: 1,
        pageSize: 100,
        total: 1,
        infos: [
          {
            id: 5,
            name: 'Acme Solar',
            contactName: '',
            email: '',
            phone: '',
            address: '',
            remark: '',
            logoUrl: '',
            iconUrl: '',
            themeColor: '',
            createAt: '2026-01-05T10:00:00.000+00:00',
            adminId: null,
            adminAccount: '',
            disabled: false,
            staff: 0,
            plants: 0,
          },
        ],
      }),
    'GET /api/v1/customers/list': () =>
      envelope([{ id: 1, userId: 11, account: 'olivia@example.com', nickname: 'Olivia' }]),
    'GET /api/v1/gateway/{id}/delete': () => envelope(null),
    ...more,
  });
}

const show = (edit: boolean) =>
  renderScreen(<SystemGatewaysPage />, { permissions: permissions(edit) });

const rowOf = (sn: string) => screen.getByText(sn).closest('tr') as HTMLElement;

/** The query of the list's last request. */
const lastList = (api: ReturnType<typeof serve>) => api.calls('GET /api/v1/gateways').at(-1)?.query;

describe('SystemGatewaysPage', () => {
  it('lists every gateway with its place and customer; no buttons without the right', async () => {
    serve();
    await show(false);
    await screen.findByText('GW-BOUND-02');
    const table = screen.getByTestId('sys-gateway-table');
    expect(table).toHaveTextContent('GW-200');
    expect(table).toHaveTextContent('modbus-default');
    expect(within(rowOf('GW-STOCK-01')).getByTestId('gateway-plant')).toHaveTextContent('In stock');
    expect(within(rowOf('GW-BOUND-02')).getByTestId('gateway-plant')).toHaveTextContent(
      'Sunny Roof',
    );
    expect(within(rowOf('GW-BOUND-02')).getByTestId('gateway-customer')).toHaveTextContent(
      'Olivia',
    );
    expect(screen.queryByTestId('sys-gateway-register')).toBeNull();
    expect(screen.queryByTestId('sys-gateway-import')).toBeNull();
    expect(screen.queryByTestId('action-delete')).toBeNull();
  });

  it('filters by keyword and place through the request', async () => {
    const api = serve();
    await show(false);
    await screen.findByText('GW-BOUND-02');
    fireEvent.click(screen.getByText('On a plant'));
    await waitFor(() => expect(lastList(api)).toMatchObject({ bound: 'true' }));
    const search = within(screen.getByTestId('sys-gateway-search')).getByRole('searchbox');
    fireEvent.change(search, { target: { value: 'STOCK' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lastList(api)).toMatchObject({ keyword: 'STOCK', bound: 'true' }));
  });

  it("narrows to a customer's gateways from the customer's name, and back", async () => {
    const api = serve();
    await show(false);
    await screen.findByText('GW-BOUND-02');
    fireEvent.click(within(rowOf('GW-BOUND-02')).getByText('Olivia'));
    const tag = await screen.findByTestId('sys-gateway-customer-filter');
    expect(tag).toHaveTextContent('Customer: Olivia');
    await waitFor(() => expect(lastList(api)).toMatchObject({ customerId: 11 }));
    fireEvent.click(tag.querySelector('.ant-tag-close-icon') as Element);
    await waitFor(() => expect(screen.queryByTestId('sys-gateway-customer-filter')).toBeNull());
  });

  it('shows the empty state with the register button', async () => {
    serve([]);
    await show(true);
    expect(await screen.findByText('No gateway is registered yet')).toBeTruthy();
    expect(await screen.findByTestId('sys-gateway-register-empty')).toBeTruthy();
  });

  it('retries after a failed load', async () => {
    let fail = true;
    const api = serve();
    api.on({
      'GET /api/v1/gateways': () =>
        fail
          ? failure(1, 'down')
          : envelope({ pageNumber: 1, pageSize: 10, total: 2, infos: [stock, bound] }),
    });
    await show(false);
    const error = await screen.findByTestId('sys-gateways-error');
    // the screen says it; the list asks quietly, without a toast
    expect(api.toasts).toEqual([]);
    fail = false;
    fireEvent.click(within(error).getByRole('button'));
    expect(await screen.findByText('GW-BOUND-02')).toBeTruthy();
  });

  it('deletes a free gateway after confirmation; a bound or held one cannot be', async () => {
    const held = gatewayRow({ id: 9, sn: 'GW-HELD-03', customerId: 11, customerName: 'Olivia' });
    const api = serve([stock, bound, held]);
    await show(true);
    await screen.findByText('GW-BOUND-02');
    const boundDelete = within(rowOf('GW-BOUND-02')).getByTestId('action-delete');
    expect(boundDelete).toBeDisabled();
    expect(within(rowOf('GW-BOUND-02')).getByTestId('action-customer')).toBeDisabled();
    // the server keeps a customer's stock (301): the customer is removed first
    expect(within(rowOf('GW-HELD-03')).getByTestId('action-delete')).toBeDisabled();
    expect(within(rowOf('GW-HELD-03')).getByTestId('action-customer')).toBeEnabled();
    fireEvent.click(within(rowOf('GW-STOCK-01')).getByTestId('action-delete'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Delete gateway GW-STOCK-01?');
    fireEvent.click(within(dialog).getByTestId('delete-ok'));
    await waitFor(() =>
      expect(api.calls('GET /api/v1/gateway/{id}/delete').map((c) => c.params)).toEqual([
        { id: '7' },
      ]),
    );
    expect(await screen.findByText('The gateway was deleted')).toBeTruthy();
  });

  it('registers a gateway: the form checks the fields, a known SN is shown at the SN', async () => {
    const answers = [failure(4, 'Parameter validation error: sn'), envelope(42)];
    const api = serve(undefined, { 'POST /api/v1/gateway/create': () => answers.shift()! });
    await show(true);
    fireEvent.click(await screen.findByTestId('sys-gateway-register'));
    const sn = await screen.findByTestId('register-sn');
    fireEvent.change(sn, { target: { value: 'GW_1' } });
    fireEvent.change(screen.getByTestId('register-key'), { target: { value: 'k1' } });
    fireEvent.click(screen.getByTestId('register-ok'));
    // the hint under the field, and the same words as its error
    await waitFor(() =>
      expect(screen.getAllByText('Letters, digits and -, 6 to 32 characters')).toHaveLength(2),
    );
    expect(api.calls('POST /api/v1/gateway/create')).toEqual([]);
    fireEvent.change(sn, { target: { value: 'GW-NEW-0001' } });
    fireEvent.change(screen.getByTestId('register-key'), { target: { value: 'k3y-new-1' } });
    fireEvent.change(screen.getByTestId('register-model'), { target: { value: 'GW-300' } });
    await afterGuard(screen.getByTestId('register-ok'));
    fireEvent.click(screen.getByTestId('register-ok'));
    expect(await screen.findByText('This SN is already registered')).toBeTruthy();
    expect(api.calls('POST /api/v1/gateway/create').map((c) => c.body)).toEqual([
      { sn: 'GW-NEW-0001', key: 'k3y-new-1', model: 'GW-300' },
    ]);
    // the refusal is shown at the field, not as a toast
    expect(api.toasts).toEqual([]);
    fireEvent.change(sn, { target: { value: 'GW-NEW-0002' } });
    await afterGuard(screen.getByTestId('register-ok'));
    fireEvent.click(screen.getByTestId('register-ok'));
    expect(await screen.findByText('The gateway was registered')).toBeTruthy();
  });

  it('creates many: bad lines block the send, then every line has its result', async () => {
    const api = serve(undefined, {
      'POST /api/v1/gateway/batch': () =>
        envelope({
          total: 2,
          succeeded: 1,
          failed: 1,
          results: [
            { row: 1, sn: 'GW-MANY-0001', code: 0, msg: '', result: 'created' },
            { row: 2, sn: 'GW-STOCK-01', code: 4, msg: 'already registered', result: 'duplicate' },
          ],
        }),
    });
    await show(true);
    fireEvent.click(await screen.findByTestId('sys-gateway-batch'));
    const lines = await screen.findByTestId('batch-lines');
    fireEvent.change(lines, { target: { value: 'GW-MANY-0001,key-0001\nbad,key-0002' } });
    expect(await screen.findByTestId('batch-problems')).toHaveTextContent(
      'Line 2: Letters, digits and -, 6 to 32 characters',
    );
    expect(screen.getByTestId('batch-ok')).toBeDisabled();
    fireEvent.change(lines, {
      target: { value: 'GW-MANY-0001,key-0001,GW-300\n\nGW-STOCK-01,key-0002' },
    });
    await waitFor(() => expect(screen.getByTestId('batch-ok')).toBeEnabled());
    fireEvent.click(screen.getByTestId('batch-ok'));
    await waitFor(() =>
      expect(api.calls('POST /api/v1/gateway/batch').map((c) => c.body)).toEqual([
        {
          gateways: [
            { sn: 'GW-MANY-0001', key: 'key-0001', model: 'GW-300' },
            { sn: 'GW-STOCK-01', key: 'key-0002' },
          ],
        },
      ]),
    );
    const results = await screen.findByTestId('result-table');
    expect(
      within(results)
        .getAllByTestId('row-result')
        .map((r) => r.dataset.result),
    ).toEqual(['created', 'duplicate']);
    // the second gateway was on the third pasted line
    expect(within(results).getByText('3')).toBeTruthy();
    expect(results).toHaveTextContent('already registered');
    expect(screen.getByTestId('count-created')).toHaveTextContent('1');
  });

  it('assigns a customer: a company first, then one of its customers', async () => {
    const api = serve(undefined, { 'POST /api/v1/gateway/{id}/customer': () => envelope(null) });
    await show(true);
    await screen.findByText('GW-BOUND-02');
    fireEvent.click(within(rowOf('GW-STOCK-01')).getByTestId('action-customer'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('customer-ok')).toBeDisabled();
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Company' }));
    fireEvent.click(await screen.findByTitle('Acme Solar'));
    await waitFor(() =>
      expect(api.calls('GET /api/v1/customers/list').map((c) => c.query)).toEqual([
        { companyId: 5, lan: 'en' },
      ]),
    );
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Customer' }));
    fireEvent.click(await screen.findByTitle('olivia@example.com (Olivia)'));
    fireEvent.click(within(dialog).getByTestId('customer-ok'));
    await waitFor(() =>
      expect(api.calls('POST /api/v1/gateway/{id}/customer')).toMatchObject([
        { params: { id: '7' }, body: { customerId: 11 } },
      ]),
    );
  });
});
