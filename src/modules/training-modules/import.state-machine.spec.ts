import { IMPORT_STATUSES, type ImportStatus } from './entities/training-import.entity';
import { importTransition, type ImportAction } from './import.state-machine';

const ACTIONS: ImportAction[] = ['receive', 'validate', 'extract', 'complete', 'fail', 'cancel'];

/** Every (state, action) pair of the import table of docs/enterprise/training-modules.md; anything not listed here is refused. */
const EXPECTED: Partial<Record<ImportStatus, Partial<Record<ImportAction, ImportStatus>>>> = {
  created: { receive: 'receiving', cancel: 'cancelled' },
  receiving: { validate: 'validating', fail: 'failed', cancel: 'cancelled' },
  validating: { extract: 'extracting', fail: 'failed', cancel: 'cancelled' },
  extracting: { complete: 'complete', fail: 'failed', cancel: 'cancelled' },
};

describe('import state machine', () => {
  for (const from of IMPORT_STATUSES) {
    for (const action of ACTIONS) {
      const to = EXPECTED[from]?.[action];
      it(`${from} + ${action} → ${to ?? 'refused'}`, () => {
        const move = importTransition(from, action);
        if (to) expect(move).toEqual({ ok: true, to });
        else expect(move).toEqual({ ok: false, reason: `A ${from} import cannot ${action}` });
      });
    }
  }
});
