import type { ImportStatus } from './entities/training-import.entity';

export type ImportAction = 'receive' | 'validate' | 'extract' | 'complete' | 'fail' | 'cancel';

/** Progress ranges of each working state (docs/enterprise/training-modules.md). */
export const PROGRESS_RANGE: Record<'receiving' | 'validating' | 'extracting', [number, number]> = {
  receiving: [0, 60],
  validating: [60, 70],
  extracting: [70, 100],
};

export const TERMINAL_IMPORT_STATUSES: readonly ImportStatus[] = ['complete', 'failed', 'cancelled'];
export const WORKING_IMPORT_STATUSES: readonly ImportStatus[] = ['receiving', 'validating', 'extracting'];

interface Row {
  from: ImportStatus;
  action: ImportAction;
  to: ImportStatus;
}

/** The import table of docs/enterprise/training-modules.md, row by row. Moves not listed (terminal states included) are refused (409). */
export const IMPORT_TRANSITIONS: readonly Row[] = [
  { from: 'created', action: 'receive', to: 'receiving' },
  { from: 'created', action: 'cancel', to: 'cancelled' },
  { from: 'receiving', action: 'validate', to: 'validating' },
  { from: 'receiving', action: 'fail', to: 'failed' },
  { from: 'receiving', action: 'cancel', to: 'cancelled' },
  { from: 'validating', action: 'extract', to: 'extracting' },
  { from: 'validating', action: 'fail', to: 'failed' },
  { from: 'validating', action: 'cancel', to: 'cancelled' },
  { from: 'extracting', action: 'complete', to: 'complete' },
  { from: 'extracting', action: 'fail', to: 'failed' },
  { from: 'extracting', action: 'cancel', to: 'cancelled' },
];

export type ImportTransition = { ok: true; to: ImportStatus } | { ok: false; reason: string };

/** Pure: where `action` takes an import in state `from`. */
export function importTransition(from: ImportStatus, action: ImportAction): ImportTransition {
  const row = IMPORT_TRANSITIONS.find((r) => r.from === from && r.action === action);
  return row ? { ok: true, to: row.to } : { ok: false, reason: `A ${from} import cannot ${action}` };
}
