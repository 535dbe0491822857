import type { Schemas } from '../api/schema';
import { api } from '../api/client';
import { ErrorCode } from '../http';

/**
 * What an import does with each row: `register` adds gateways to the factory registry
 * (internal administrators, sys.gateway.edit); `claim` takes registered gateways into the
 * caller's stock or onto a plant (gateway.import).
 */
export type ImportMode = 'register' | 'claim';

/** What became of a row: created (or claimed), already there, or refused for a field. */
export type RowResult = Schemas['ImportResult'];

/** One row of an imported sheet with its outcome (`row` is the sheet's own row number). */
export type ImportRow = Schemas['GatewayImportRow'];

/** A whole sheet's outcome: totals and every row. */
export type ImportOutcome = Schemas['GatewayImport'];

/** The sheet limit the server holds to (2 MB). */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** The file names the picker takes. */
export const IMPORT_ACCEPT = '.xlsx';

/**
 * Whether a file may be sent: an .xlsx of at most 2 MB (the server does not read the legacy .xls);
 * the locale key of why not.
 */
export function importFileProblem(file: { name: string; size: number }): string | null {
  if (!/\.xlsx$/i.test(file.name)) return 'sysGateways.import.wrongType';
  if (file.size === 0) return 'sysGateways.import.emptyFile';
  if (file.size > IMPORT_MAX_BYTES) return 'sysGateways.import.tooLarge';
  return null;
}

/** Codes the dialog shows itself (a file the server cannot read, too large, a bad sheet). */
const HANDLED: readonly number[] = [
  ErrorCode.InvalidParameter,
  ErrorCode.UnsupportedFile,
  ErrorCode.FileTooLarge,
  ErrorCode.NoPermission,
];

function sheetForm(file: File, mode: ImportMode): FormData {
  const form = new FormData();
  // claim is the endpoints' own behaviour without `mode`: older servers and clients agree
  if (mode === 'register') form.append('mode', mode);
  form.append('file', file);
  return form;
}

/** What importing would do with every row; nothing is written. */
export const checkImport = (file: File, mode: ImportMode) =>
  api.post('/api/v1/gateway/import/check', {
    body: sheetForm(file, mode),
    handledCodes: HANDLED,
  });

/** Imports the sheet; every row is handled on its own. */
export const runImport = (file: File, mode: ImportMode) =>
  api.post('/api/v1/gateway/import/batch', {
    body: sheetForm(file, mode),
    handledCodes: HANDLED,
  });

/** The sheet to fill in: its header row and one example row. */
export const downloadTemplate = (mode: ImportMode) =>
  api.download(
    '/api/v1/gateway/import/template',
    { query: { mode } },
    mode === 'register' ? 'gateway-register-template.xlsx' : 'gateway-import-template.xlsx',
  );

/** How many rows came out each way. */
export function countResults(rows: readonly ImportRow[]): Record<RowResult, number> {
  const counts: Record<RowResult, number> = { created: 0, duplicate: 0, invalid: 0 };
  for (const r of rows) counts[r.result] += 1;
  return counts;
}
