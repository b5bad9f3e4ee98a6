/** The work-log entry state machine (docs/enterprise/work-log.md) as data, and one pure transition(). */

export const ENTRY_STATUSES = ['started', 'paused', 'suspended', 'complete', 'cancelled'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

export const ENTRY_ACTIONS = [
  'pause',
  'resume',
  'suspend',
  'assume',
  'finish',
  'cancel',
  'record',
  'request_signoff',
] as const;
export type EntryAction = (typeof ENTRY_ACTIONS)[number];

/** Who may make a move: the owner, any reader of the guide, or the owner or a Moderator+. */
export type EntryGuard = 'owner' | 'reader' | 'owner_or_moderator';

/** What a move does besides changing the status (the service carries it out). */
export type EntryEffect =
  | 'close_timing'
  | 'reopen_timing'
  | 'stop_pause_clock'
  | 'start_pause_clock'
  | 'change_owner'
  | 'set_endtime'
  | 'pin_current_revision'
  | 'mark_cancelled'
  | 'none';

export interface EntryMove {
  from: EntryStatus;
  action: EntryAction;
  guard: EntryGuard;
  to: EntryStatus;
  effects: EntryEffect[];
  /** The repeat that writes nothing and answers the stored result (`finish` on a complete entry). */
  idempotent?: boolean;
}

export const ENTRY_MOVES: readonly EntryMove[] = [
  { from: 'started', action: 'pause', guard: 'owner', to: 'paused', effects: ['close_timing', 'start_pause_clock'] },
  { from: 'paused', action: 'resume', guard: 'owner', to: 'started', effects: ['stop_pause_clock', 'reopen_timing'] },
  { from: 'started', action: 'suspend', guard: 'owner', to: 'suspended', effects: ['close_timing'] },
  { from: 'paused', action: 'suspend', guard: 'owner', to: 'suspended', effects: ['stop_pause_clock'] },
  { from: 'suspended', action: 'assume', guard: 'reader', to: 'started', effects: ['change_owner', 'reopen_timing'] },
  {
    from: 'started',
    action: 'finish',
    guard: 'owner',
    to: 'complete',
    effects: ['close_timing', 'set_endtime', 'pin_current_revision'],
  },
  {
    from: 'paused',
    action: 'finish',
    guard: 'owner',
    to: 'complete',
    effects: ['stop_pause_clock', 'set_endtime', 'pin_current_revision'],
  },
  { from: 'complete', action: 'finish', guard: 'owner', to: 'complete', effects: ['none'], idempotent: true },
  {
    from: 'started',
    action: 'cancel',
    guard: 'owner_or_moderator',
    to: 'cancelled',
    effects: ['close_timing', 'set_endtime', 'mark_cancelled'],
  },
  {
    from: 'paused',
    action: 'cancel',
    guard: 'owner_or_moderator',
    to: 'cancelled',
    effects: ['stop_pause_clock', 'set_endtime', 'mark_cancelled'],
  },
  {
    from: 'suspended',
    action: 'cancel',
    guard: 'owner_or_moderator',
    to: 'cancelled',
    effects: ['set_endtime', 'mark_cancelled'],
  },
  { from: 'started', action: 'record', guard: 'owner', to: 'started', effects: ['none'] },
  { from: 'started', action: 'request_signoff', guard: 'owner', to: 'started', effects: ['none'] },
  { from: 'paused', action: 'request_signoff', guard: 'owner', to: 'paused', effects: ['none'] },
];

/** The move for (status, action), or undefined when it is not allowed (a 409). */
export function transition(from: EntryStatus, action: EntryAction): EntryMove | undefined {
  return ENTRY_MOVES.find((move) => move.from === from && move.action === action);
}

/** The guard of an action: the same for every state the action leaves (undefined if never allowed). */
export function guardOf(action: EntryAction): EntryGuard | undefined {
  return ENTRY_MOVES.find((move) => move.action === action)?.guard;
}

export const isTerminal = (status: EntryStatus): boolean => status === 'complete' || status === 'cancelled';
