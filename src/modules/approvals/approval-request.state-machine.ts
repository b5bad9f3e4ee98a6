/**
 * The approval request state machine (docs/enterprise/approvals.md) as a table: (from, action, guard) → to, effects.
 * `transition()` is pure; the service applies its outcome with `UPDATE … WHERE status = :from`.
 */
export const REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const STAGE_STATUSES = ['waiting', 'pending', 'approved', 'rejected', 'skipped'] as const;
export type StageStatus = (typeof STAGE_STATUSES)[number];
export const REQUEST_ACTIONS = ['approve', 'reject', 'cancel'] as const;
export type RequestAction = (typeof REQUEST_ACTIONS)[number];

export type RequestEffect =
  /** The signature is recorded on the open stage. */
  | 'record_signature'
  /** The next stage becomes `pending` and its signers are mailed. */
  | 'open_next_stage'
  /** The release goes live. */
  | 'release_released'
  /** The release is rejected and the requester mailed. */
  | 'release_rejected'
  | 'mail_requester';

/** What a move depends on, read in the move's transaction. */
export interface RequestFacts {
  /** Approvals of the open stage including the one being given (approve only). */
  approvals: number;
  requiredSignatures: number;
  isLastStage: boolean;
  /** A non-empty note came with the decision. */
  hasNote: boolean;
}

export interface Outcome {
  request: RequestStatus;
  /** The open stage's new status. */
  stage: StageStatus;
  effects: RequestEffect[];
  /** The event the move publishes (docs/enterprise/webhooks-events.md), or none while a stage still collects signatures. */
  event: 'stage_approved' | 'approved' | 'rejected' | 'cancelled' | null;
}

export type Refusal = { refused: 'not_pending' } | { refused: 'note_required' };

interface Row {
  from: RequestStatus;
  action: RequestAction;
  guard: (facts: RequestFacts) => boolean;
  outcome: Outcome | Refusal;
}

const TABLE: Row[] = [
  {
    from: 'pending',
    action: 'approve',
    guard: (f) => f.approvals < f.requiredSignatures,
    outcome: { request: 'pending', stage: 'pending', effects: ['record_signature'], event: null },
  },
  {
    from: 'pending',
    action: 'approve',
    guard: (f) => f.approvals >= f.requiredSignatures && !f.isLastStage,
    outcome: {
      request: 'pending',
      stage: 'approved',
      effects: ['record_signature', 'open_next_stage'],
      event: 'stage_approved',
    },
  },
  {
    from: 'pending',
    action: 'approve',
    guard: (f) => f.approvals >= f.requiredSignatures && f.isLastStage,
    outcome: {
      request: 'approved',
      stage: 'approved',
      effects: ['record_signature', 'release_released'],
      event: 'approved',
    },
  },
  { from: 'pending', action: 'reject', guard: (f) => !f.hasNote, outcome: { refused: 'note_required' } },
  {
    from: 'pending',
    action: 'reject',
    guard: (f) => f.hasNote,
    outcome: {
      request: 'rejected',
      stage: 'rejected',
      effects: ['record_signature', 'release_rejected', 'mail_requester'],
      event: 'rejected',
    },
  },
  {
    from: 'pending',
    action: 'cancel',
    guard: () => true,
    outcome: { request: 'cancelled', stage: 'skipped', effects: [], event: 'cancelled' },
  },
];

/** The outcome of `action` on a request in `from`; moves not in the table (terminal states) are `not_pending`. */
export function transition(from: RequestStatus, action: RequestAction, facts: RequestFacts): Outcome | Refusal {
  const row = TABLE.find((r) => r.from === from && r.action === action && r.guard(facts));
  return row ? row.outcome : { refused: 'not_pending' };
}

export const isRefusal = (result: Outcome | Refusal): result is Refusal => 'refused' in result;
