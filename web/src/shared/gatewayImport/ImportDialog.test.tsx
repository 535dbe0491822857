import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { envelope, failure, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import { importFileProblem, type ImportOutcome } from './api';
import { ImportDialog } from './ImportDialog';

const sheet: ImportOutcome = {
  total: 3,
  succeeded: 1,
  failed: 2,
  results: [
    { row: 2, sn: 'GW-IMP-0001', code: 0, msg: '', result: 'created' },
    { row: 3, sn: 'GW-IMP-0001', code: 4, msg: 'repeated in the file', result: 'duplicate' },
    { row: 4, sn: 'bad', code: 4, msg: 'Parameter validation error: sn', result: 'invalid' },
  ],
};

const show = (mode: 'register' | 'claim', onImported = vi.fn()) =>
  renderScreen(<ImportDialog mode={mode} onClose={vi.fn()} onImported={onImported} />);

const serve = () =>
  fakeHttp({
    'POST /api/v1/gateway/import/check': () => envelope(sheet),
    'POST /api/v1/gateway/import/batch': () => envelope(sheet),
  });

/** The form a check sent. */
const checked = (api: ReturnType<typeof serve>) =>
  api.calls('POST /api/v1/gateway/import/check')[0]?.body as unknown as FormData;

const xlsx = (name = 'gateways.xlsx', size = 100) =>
  new File([new Uint8Array(size)], name, {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });

function pick(file: File) {
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

describe('importFileProblem', () => {
  it('takes .xlsx files of at most 2 MB, not the legacy .xls', () => {
    expect(importFileProblem({ name: 'a.xlsx', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'A.XLSX', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'A.XLS', size: 10 })).toBe('sysGateways.import.wrongType');
    expect(importFileProblem({ name: 'a.csv', size: 10 })).toBe('sysGateways.import.wrongType');
    expect(importFileProblem({ name: 'a.xlsx', size: 0 })).toBe('sysGateways.import.emptyFile');
    expect(importFileProblem({ name: 'a.xlsx', size: 2 * 1024 * 1024 + 1 })).toBe(
      'sysGateways.import.tooLarge',
    );
  });
});

describe('ImportDialog', () => {
  it('refuses a file that is not a workbook before sending it', async () => {
    const api = serve();
    await show('register');
    pick(new File(['sn,key'], 'gateways.csv', { type: 'text/csv' }));
    expect(await screen.findByTestId('import-problem')).toHaveTextContent(
      'Only .xlsx files can be imported',
    );
    expect(screen.getByTestId('import-check')).toBeDisabled();
    expect(api.calls('POST /api/v1/gateway/import/check')).toEqual([]);
  });

  it('checks the sheet (mode register), shows every row, then imports it', async () => {
    const onImported = vi.fn();
    const api = serve();
    await show('register', onImported);
    pick(xlsx());
    expect(await screen.findByTestId('import-file')).toHaveTextContent('gateways.xlsx');
    fireEvent.click(screen.getByTestId('import-check'));
    const preview = await screen.findByTestId('import-preview');
    expect(preview).toHaveTextContent('Checked 3 rows: nothing is imported yet');
    const form = checked(api);
    expect(form.get('mode')).toBe('register');
    expect((form.get('file') as File).name).toBe('gateways.xlsx');
    const table = screen.getByTestId('result-table');
    expect(
      within(table)
        .getAllByTestId('row-result')
        .map((r) => r.dataset.result),
    ).toEqual(['created', 'duplicate', 'invalid']);
    expect(table).toHaveTextContent('repeated in the file');
    expect(table).toHaveTextContent('Parameter validation error: sn');
    expect(screen.getByTestId('count-created')).toHaveTextContent('Created: 1');
    expect(screen.getByTestId('count-invalid')).toHaveTextContent('Invalid: 1');

    fireEvent.click(screen.getByTestId('import-run'));
    expect(await screen.findByTestId('import-result')).toHaveTextContent(
      'Imported: 3 rows handled',
    );
    expect(api.calls('POST /api/v1/gateway/import/batch')).toHaveLength(1);
    expect(onImported).toHaveBeenCalled();
    expect(screen.getByTestId('import-close')).toBeTruthy();
  });

  it('claims without the mode field and names created rows "added"', async () => {
    const api = serve();
    await show('claim');
    pick(xlsx('stock.XLSX'));
    fireEvent.click(await screen.findByTestId('import-check'));
    await screen.findByTestId('import-preview');
    expect(checked(api).get('mode')).toBeNull();
    expect(screen.getByTestId('count-created')).toHaveTextContent('Added: 1');
  });

  it('shows a refused sheet in the dialog and offers no import', async () => {
    serve().on({
      'POST /api/v1/gateway/import/check': () => failure(11, 'Unsupported file type'),
    });
    await show('register');
    pick(xlsx());
    fireEvent.click(await screen.findByTestId('import-check'));
    expect(await screen.findByTestId('import-problem')).toHaveTextContent('Unsupported file type');
    await waitFor(() => expect(screen.queryByTestId('import-run')).toBeNull());
  });
});
