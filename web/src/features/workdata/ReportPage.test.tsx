import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import MockAdapter from 'axios-mock-adapter';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { http } from '@/shared/http';
import { monthReport } from './fixtures';
import ReportPage from './ReportPage';

// Not HTTP: jsdom has no canvas for echarts, so here a chart is a labelled box (the browser
// tests draw the real ones).
vi.mock('@/shared/charts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  EChart: ({ ariaLabel }: { ariaLabel?: string }) => <div data-testid="chart">{ariaLabel}</div>,
}));

const ok = <T,>(data: T): [number, unknown] => [200, { code: 0, msg: 'Success', data }];
const failure = (code: number, msg: string): [number, unknown] => [200, { code, msg, data: null }];

function tree(keys: string[]) {
  return { permission: 'root', type: 0, children: keys.map((k) => ({ permission: k, type: 0 })) };
}

function show(url = '/workdata/info/7?type=month&date=2026-10') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/workdata/info/:id" element={<ReportPage />} />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

describe('ReportPage', () => {
  let mock: MockAdapter;
  beforeEach(() => {
    mock = new MockAdapter(http.axios);
    mock
      .onGet('/api/v1/report/plant/7/subscription')
      .reply(...ok({ enabled: false, email: 'o@example.com', lastSent: null }));
  });
  afterEach(() => mock.restore());

  it('shows the figures of the report on its A4 pages, with print and download', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['workdata.view', 'workdata.export'])));
    mock.onGet('/api/v1/report/plant/7').reply((config) => {
      expect(config.params).toMatchObject({ type: 'month', date: '2026-10' });
      return ok(monthReport());
    });
    show();
    await screen.findByTestId('report-sheets');
    expect(screen.getByTestId('report-sheets')).toHaveAttribute('data-pages', '3');
    expect(screen.getAllByTestId('report-page')).toHaveLength(3);
    expect(screen.getByTestId('report-title')).toHaveTextContent('Monthly report · Roof A');
    const produced = screen
      .getAllByTestId('report-figure')
      .find((f) => f.getAttribute('data-key') === 'produced');
    expect(produced).toHaveAttribute('data-value', '412.5');
    expect(produced).toHaveTextContent('412.50 kWh');
    const ratio = screen
      .getAllByTestId('report-figure')
      .find((f) => f.getAttribute('data-key') === 'predictedRatio');
    expect(ratio).toHaveTextContent('91.7 %');
    expect(screen.getAllByTestId('report-energy-row')).toHaveLength(2);
    expect(screen.getAllByTestId('report-event-row')).toHaveLength(1);
    expect(screen.getByTestId('report-print')).toBeEnabled();
    expect(await screen.findByTestId('report-download')).toBeInTheDocument();
    // the default theme shows the product's mark, not the company's logo
    expect(screen.queryByTestId('report-logo')).toBeNull();
  });

  it('offers no download without the export right, and prints with window.print', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['workdata.view'])));
    mock.onGet('/api/v1/report/plant/7').reply(...ok(monthReport()));
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    show();
    await screen.findByTestId('report-sheets');
    expect(screen.queryByTestId('report-download')).toBeNull();
    fireEvent.click(screen.getByTestId('report-print'));
    expect(print).toHaveBeenCalledTimes(1);
    print.mockRestore();
  });

  it('says a plant that is not visible has no report', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['workdata.view'])));
    mock.onGet('/api/v1/report/plant/7').reply(...failure(4, 'Invalid parameter: id'));
    show();
    expect(await screen.findByTestId('report-error')).toHaveTextContent(
      'This report is not available',
    );
  });

  it('subscribes the caller to the monthly e-mail', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['workdata.view'])));
    mock.onGet('/api/v1/report/plant/7').reply(...ok(monthReport()));
    mock.onPost('/api/v1/report/plant/7/subscription').reply((config) => {
      expect(JSON.parse(String(config.data))).toEqual({ enabled: true });
      return ok({ enabled: true, email: 'o@example.com', lastSent: null });
    });
    show();
    const toggle = await screen.findByTestId('report-subscription-switch');
    await waitFor(() => expect(toggle).not.toHaveClass('ant-switch-loading'));
    fireEvent.click(toggle);
    await waitFor(() => expect(mock.history.post).toHaveLength(1));
  });
});
