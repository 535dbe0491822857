export { ImportDialog } from './ImportDialog';
export { ResultCounts, ResultTable, ResultTag, type ResultRow } from './ResultTable';
export { countResults, type ImportMode, type ImportOutcome, type RowResult } from './api';
