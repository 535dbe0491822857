import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { envelope, failure, fakeHttp, type Routes } from '@/test/http';
import { renderScreen } from '@/test/render';
import { monthReport } from './fixtures';
import ReportPage from './ReportPage';

// Not HTTP: jsdom has no canvas for echarts, so here a chart is a labelled box (the browser
// tests draw the real ones).
vi.mock('@/shared/charts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  EChart: ({ ariaLabel }: { ariaLabel?: string }) => <div data-testid="chart">{ariaLabel}</div>,
}));

function tree(keys: string[]) {
  return { permission: 'root', type: 0, children: keys.map((k) => ({ permission: k, type: 0 })) };
}

/** The server: plant 7's report as `routes` answer it, its monthly e-mail off. */
const serve = (routes: Routes) =>
  fakeHttp({
    'GET /api/v1/report/plant/{id}/subscription': () =>
      envelope({ enabled: false, email: 'o@example.com', lastSent: null }),
    ...routes,
  });

const show = (keys: string[], route = '/workdata/info/7?type=month&date=2026-10') =>
  renderScreen(<ReportPage />, { route, path: '/workdata/info/:id', permissions: tree(keys) });

describe('ReportPage', () => {
  it('shows the figures of the report on its A4 pages, with print and download', async () => {
    const api = serve({ 'GET /api/v1/report/plant/{id}': () => envelope(monthReport()) });
    await show(['workdata.view', 'workdata.export']);
    await screen.findByTestId('report-sheets');
    const asked = api.calls('GET /api/v1/report/plant/{id}')[0];
    expect(asked?.params).toEqual({ id: '7' });
    expect(asked?.query).toMatchObject({ type: 'month', date: '2026-10' });
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
    // The plant figures of the period, with the ratio's reference and the CO2 factor.
    const figure = (key: string) =>
      screen.getAllByTestId('report-figure').find((f) => f.getAttribute('data-key') === key);
    expect(figure('performanceRatio')).toHaveTextContent('82.5 %');
    expect(figure('performanceRatio')).toHaveTextContent('against the weather station');
    expect(figure('specificYield')).toHaveTextContent('42.97 kWh/kWp');
    expect(figure('availability')).toHaveAttribute('data-value', '99.2');
    expect(figure('co2Avoided')).toHaveTextContent('at 0.4 kg CO₂/kWh');
    expect(screen.getAllByTestId('report-energy-row')).toHaveLength(2);
    expect(screen.getAllByTestId('report-event-row')).toHaveLength(1);
    expect(screen.getByTestId('report-print')).toBeEnabled();
    expect(await screen.findByTestId('report-download')).toBeInTheDocument();
    // the default theme shows the product's mark, not the company's logo
    expect(screen.queryByTestId('report-logo')).toBeNull();
  });

  it('offers no download without the export right, and prints with window.print', async () => {
    serve({ 'GET /api/v1/report/plant/{id}': () => envelope(monthReport()) });
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    await show(['workdata.view']);
    await screen.findByTestId('report-sheets');
    expect(screen.queryByTestId('report-download')).toBeNull();
    fireEvent.click(screen.getByTestId('report-print'));
    expect(print).toHaveBeenCalledTimes(1);
    print.mockRestore();
  });

  it('says a plant that is not visible has no report', async () => {
    serve({ 'GET /api/v1/report/plant/{id}': () => failure(4, 'Invalid parameter: id') });
    await show(['workdata.view']);
    expect(await screen.findByTestId('report-error')).toHaveTextContent(
      'This report is not available',
    );
  });

  it('subscribes the caller to the monthly e-mail', async () => {
    const api = serve({
      'GET /api/v1/report/plant/{id}': () => envelope(monthReport()),
      'POST /api/v1/report/plant/{id}/subscription': () =>
        envelope({ enabled: true, email: 'o@example.com', lastSent: null }),
    });
    await show(['workdata.view']);
    const toggle = await screen.findByTestId('report-subscription-switch');
    await waitFor(() => expect(toggle).not.toHaveClass('ant-switch-loading'));
    fireEvent.click(toggle);
    await waitFor(() =>
      expect(api.calls('POST /api/v1/report/plant/{id}/subscription')).toHaveLength(1),
    );
    expect(api.calls('POST /api/v1/report/plant/{id}/subscription')[0]?.body).toEqual({
      enabled: true,
    });
  });
});
