/** The quiz session state machine (docs/enterprise/quizzes.md) as data, and one pure transition(). */

export const SESSION_STATUSES = ['in_progress', 'submitted', 'cancelled', 'invalidated'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const SESSION_ACTIONS = ['save', 'submit', 'cancel', 'bulkCancel', 'userInvalidateAll'] as const;
export type SessionAction = (typeof SESSION_ACTIONS)[number];

/** Who may make a move. */
export type SessionGuard = 'owner' | 'owner_or_moderator' | 'moderator';

export type SessionEffect = 'merge_answers' | 'grade' | 'record_invalidation' | 'close_slot';

export interface SessionMove {
  from: SessionStatus;
  action: SessionAction;
  guard: SessionGuard;
  to: SessionStatus;
  effects: SessionEffect[];
}

/** `attempt` creates a session in `in_progress` (one open per user, quiz and course stage); it is not a move. */
export const INITIAL_STATUS: SessionStatus = 'in_progress';

export const SESSION_MOVES: readonly SessionMove[] = [
  { from: 'in_progress', action: 'save', guard: 'owner', to: 'in_progress', effects: ['merge_answers'] },
  {
    from: 'in_progress',
    action: 'submit',
    guard: 'owner',
    to: 'submitted',
    effects: ['merge_answers', 'grade', 'close_slot'],
  },
  { from: 'in_progress', action: 'cancel', guard: 'owner_or_moderator', to: 'cancelled', effects: ['close_slot'] },
  { from: 'in_progress', action: 'bulkCancel', guard: 'moderator', to: 'cancelled', effects: ['close_slot'] },
  {
    from: 'in_progress',
    action: 'userInvalidateAll',
    guard: 'moderator',
    to: 'invalidated',
    effects: ['record_invalidation', 'close_slot'],
  },
  {
    from: 'submitted',
    action: 'userInvalidateAll',
    guard: 'moderator',
    to: 'invalidated',
    effects: ['record_invalidation'],
  },
];

/** The move for (status, action), or undefined when it is not allowed (409; bulkCancel and userInvalidateAll skip). */
export function transition(from: SessionStatus, action: SessionAction): SessionMove | undefined {
  return SESSION_MOVES.find((move) => move.from === from && move.action === action);
}

/** The states an action leaves (for the conditional UPDATE of batch moves). */
export function sourcesOf(action: SessionAction): SessionStatus[] {
  return SESSION_MOVES.filter((move) => move.action === action).map((move) => move.from);
}

export const isTerminal = (status: SessionStatus): boolean => status === 'cancelled' || status === 'invalidated';
