import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import MockAdapter from 'axios-mock-adapter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { http } from '@/shared/http';
import { PredictedDialog } from './PredictedDialog';

const ok = <T,>(data: T): [number, unknown] => [200, { code: 0, msg: 'Success', data }];

const outcome = (imported: number) => ({
  total: 2,
  imported,
  failed: 1,
  rows: [
    { row: 2, plantId: 7, year: 2026, month: 5, day: null, success: true, msg: null },
    { row: 3, plantId: 99, year: 2026, month: 13, day: null, success: false, msg: 'Bad month' },
  ],
});

function show(onClose = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <App>
        <PredictedDialog onClose={onClose} />
      </App>
    </QueryClientProvider>,
  );
}

function pick(name: string, size = 10) {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  const file = new File(['x'.repeat(size)], name);
  fireEvent.change(input, { target: { files: [file] } });
}

describe('PredictedDialog', () => {
  let mock: MockAdapter;
  beforeEach(() => {
    mock = new MockAdapter(http.axios);
  });
  afterEach(() => mock.restore());

  it('checks the file first, lists refused rows with the reason, then imports', async () => {
    mock.onPost('/api/v1/predicted/import').reply((config) => {
      const dry = (config.data as FormData).get('dryRun') === 'true';
      return ok(outcome(dry ? 0 : 1));
    });
    show();
    pick('predicted.xlsx');
    expect(await screen.findByTestId('predicted-file')).toHaveTextContent('predicted.xlsx');
    fireEvent.click(screen.getByTestId('predicted-check'));
    expect(await screen.findByTestId('predicted-preview')).toHaveTextContent('1 valid, 1 refused');
    expect(screen.getByText('Bad month')).toBeInTheDocument();
    expect(screen.getByText('2026-05')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('predicted-run'));
    expect(await screen.findByTestId('predicted-result')).toHaveTextContent('Imported 1 of 2');
    await waitFor(() => expect(mock.history.post).toHaveLength(2));
    expect((mock.history.post[1]?.data as FormData).get('dryRun')).toBeNull();
  });

  it('refuses a file that is not a sheet before sending it', async () => {
    show();
    pick('predicted.csv');
    expect(await screen.findByTestId('predicted-problem')).toHaveTextContent('Only .xlsx files');
    expect(screen.getByTestId('predicted-check')).toBeDisabled();
  });
});
