import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import { PredictedDialog } from './PredictedDialog';

const outcome = (imported: number) => ({
  dryRun: imported === 0,
  total: 2,
  imported,
  failed: 1,
  rows: [
    { row: 2, plantId: 7, year: 2026, month: 5, day: null, success: true, msg: '' },
    { row: 3, plantId: 99, year: 2026, month: 13, day: null, success: false, msg: 'Bad month' },
  ],
});

const show = (onClose = vi.fn()) => renderScreen(<PredictedDialog onClose={onClose} />);

/** The form a request sent (the import is a multipart upload). */
const form = (body: unknown) => body as FormData;

function pick(name: string, size = 10) {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  const file = new File(['x'.repeat(size)], name);
  fireEvent.change(input, { target: { files: [file] } });
}

describe('PredictedDialog', () => {
  it('checks the file first, lists refused rows with the reason, then imports', async () => {
    const api = fakeHttp({
      'POST /api/v1/predicted/import': ({ body }) =>
        envelope(outcome(form(body).get('dryRun') === 'true' ? 0 : 1)),
    });
    await show();
    pick('predicted.xlsx');
    expect(await screen.findByTestId('predicted-file')).toHaveTextContent('predicted.xlsx');
    fireEvent.click(screen.getByRole('button', { name: 'Check file' }));
    expect(await screen.findByTestId('predicted-preview')).toHaveTextContent('1 valid, 1 refused');
    expect(screen.getByText('Bad month')).toBeInTheDocument();
    expect(screen.getByText('2026-05')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('predicted-run'));
    expect(await screen.findByTestId('predicted-result')).toHaveTextContent('Imported 1 of 2');
    await waitFor(() => expect(api.calls('POST /api/v1/predicted/import')).toHaveLength(2));
    expect(form(api.calls('POST /api/v1/predicted/import')[1]?.body).get('dryRun')).toBeNull();
  });

  it('refuses a file that is not a sheet before sending it', async () => {
    const api = fakeHttp();
    await show();
    pick('predicted.csv');
    expect(await screen.findByTestId('predicted-problem')).toHaveTextContent('Only .xlsx files');
    expect(screen.getByRole('button', { name: 'Check file' })).toBeDisabled();
    expect(api.calls('POST /api/v1/predicted/import')).toEqual([]);
  });
});
