import {
  ENTRY_ACTIONS,
  ENTRY_MOVES,
  ENTRY_STATUSES,
  guardOf,
  isTerminal,
  transition,
  type EntryAction,
  type EntryStatus,
} from './work-log-entry.state-machine';

/** Every (state, action) pair, as docs/enterprise/work-log.md lists it: the target state, or null for a 409. */
const EXPECTED: Record<EntryStatus, Record<EntryAction, EntryStatus | null>> = {
  started: {
    pause: 'paused',
    resume: null,
    suspend: 'suspended',
    assume: null,
    finish: 'complete',
    cancel: 'cancelled',
    record: 'started',
    request_signoff: 'started',
  },
  paused: {
    pause: null,
    resume: 'started',
    suspend: 'suspended',
    assume: null,
    finish: 'complete',
    cancel: 'cancelled',
    record: null,
    request_signoff: 'paused',
  },
  suspended: {
    pause: null,
    resume: null,
    suspend: null,
    assume: 'started',
    finish: null,
    cancel: 'cancelled',
    record: null,
    request_signoff: null,
  },
  complete: {
    pause: null,
    resume: null,
    suspend: null,
    assume: null,
    finish: 'complete',
    cancel: null,
    record: null,
    request_signoff: null,
  },
  cancelled: {
    pause: null,
    resume: null,
    suspend: null,
    assume: null,
    finish: null,
    cancel: null,
    record: null,
    request_signoff: null,
  },
};

describe('work-log entry state machine', () => {
  const pairs = ENTRY_STATUSES.flatMap((status) => ENTRY_ACTIONS.map((action) => [status, action] as const));

  it.each(pairs)('%s + %s', (status, action) => {
    expect(transition(status, action)?.to ?? null).toBe(EXPECTED[status][action]);
  });

  it('has no duplicate (from, action) rows', () => {
    const keys = ENTRY_MOVES.map((m) => `${m.from}/${m.action}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('leaves terminal states only by the idempotent finish', () => {
    const leaving = ENTRY_MOVES.filter((m) => isTerminal(m.from));
    expect(leaving).toEqual([expect.objectContaining({ from: 'complete', action: 'finish', idempotent: true })]);
    expect(leaving[0].effects).toEqual(['none']);
  });

  it('guards: the owner moves, a reader assumes, the owner or a Moderator+ cancels', () => {
    expect(ENTRY_ACTIONS.map((a) => [a, guardOf(a)])).toEqual([
      ['pause', 'owner'],
      ['resume', 'owner'],
      ['suspend', 'owner'],
      ['assume', 'reader'],
      ['finish', 'owner'],
      ['cancel', 'owner_or_moderator'],
      ['record', 'owner'],
      ['request_signoff', 'owner'],
    ]);
    for (const action of ENTRY_ACTIONS) {
      expect(new Set(ENTRY_MOVES.filter((m) => m.action === action).map((m) => m.guard)).size).toBe(1);
    }
  });

  it('effects: pause closes the timing, resume and assume reopen it, finish pins the current revision', () => {
    expect(transition('started', 'pause')?.effects).toEqual(['close_timing', 'start_pause_clock']);
    expect(transition('paused', 'resume')?.effects).toEqual(['stop_pause_clock', 'reopen_timing']);
    expect(transition('suspended', 'assume')?.effects).toEqual(['change_owner', 'reopen_timing']);
    expect(transition('started', 'finish')?.effects).toContain('pin_current_revision');
    expect(transition('suspended', 'cancel')?.effects).toEqual(['set_endtime', 'mark_cancelled']);
  });
});
