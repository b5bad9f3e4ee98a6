import type { ReleaseStatus } from './entities/release.entity';

/** `none`: the release does not exist yet (the create row of docs/enterprise/releases.md). */
export type ReleaseState = 'none' | ReleaseStatus;
export type ReleaseAction = 'create' | 'approve' | 'reject' | 'delete';

/** What a move does besides changing the status; the service carries each one out. */
export type ReleaseEffect =
  /** `release_date` is set, the version is taken, the live revision moves, `release.released` is published. */
  | 'go_live'
  /** The document's open change requests (periodic review) are resolved by this release. */
  | 'resolve_change_requests'
  /** An approval request opens (docs/enterprise/approvals.md). */
  | 'open_request'
  /** The release's approval request is cancelled. */
  | 'cancel_request'
  /** If it was live, the previous `released` release (or else the working copy) goes live. */
  | 'previous_goes_live';

/** Facts the guards read; the service loads them before asking. */
export interface ReleaseFacts {
  /** Another release of this (doctype, docid, langid) is `pending`. */
  pendingExists?: boolean;
  /** An approval process resolves for this release (docs/enterprise/approvals.md). */
  gated?: boolean;
  /** The caller created the release or is Moderator+. */
  creatorOrModerator?: boolean;
  /** The caller is an Admin. */
  admin?: boolean;
}

export type ReleaseTransition =
  | { ok: true; to: ReleaseStatus; effects: ReleaseEffect[] }
  /** `conflict`: 409 (a move that is not listed, or the pending guard); `forbidden`: 403 (a guard on who). */
  | { ok: false; refusal: 'conflict' | 'forbidden'; reason: string };

interface Row {
  from: ReleaseState;
  action: ReleaseAction;
  guard?: (facts: ReleaseFacts) => boolean;
  /** What a failing guard answers. */
  refusal?: 'conflict' | 'forbidden';
  reason?: string;
  to: (facts: ReleaseFacts) => ReleaseStatus;
  effects: (facts: ReleaseFacts) => readonly ReleaseEffect[];
}

/** What a release going live does, created without a process or approved. */
const LIVE_EFFECTS: readonly ReleaseEffect[] = ['go_live', 'resolve_change_requests'];

/** The state machine of docs/enterprise/releases.md, row by row. Moves not listed (terminal states included) are 409. */
export const RELEASE_TRANSITIONS: readonly Row[] = [
  {
    from: 'none',
    action: 'create',
    guard: (f) => !f.pendingExists,
    refusal: 'conflict',
    reason: 'A pending release exists for this document',
    to: (f) => (f.gated ? 'pending' : 'released'),
    effects: (f) => (f.gated ? ['open_request'] : LIVE_EFFECTS),
  },
  { from: 'pending', action: 'approve', to: () => 'released', effects: () => LIVE_EFFECTS },
  { from: 'pending', action: 'reject', to: () => 'rejected', effects: () => [] },
  {
    from: 'pending',
    action: 'delete',
    guard: (f) => !!f.creatorOrModerator,
    refusal: 'forbidden',
    reason: 'Only the creator of a pending release or a Moderator may cancel it',
    to: () => 'cancelled',
    effects: () => ['cancel_request'],
  },
  {
    from: 'released',
    action: 'delete',
    guard: (f) => !!f.admin,
    refusal: 'forbidden',
    reason: 'Only an Admin may remove a released release',
    to: () => 'removed',
    effects: () => ['previous_goes_live'],
  },
];

/** Pure: where `action` takes a release in state `from`, given the facts. */
export function transition(from: ReleaseState, action: ReleaseAction, facts: ReleaseFacts = {}): ReleaseTransition {
  const row = RELEASE_TRANSITIONS.find((r) => r.from === from && r.action === action);
  if (!row) {
    return { ok: false, refusal: 'conflict', reason: `A ${from} release cannot ${action}` };
  }
  if (row.guard && !row.guard(facts)) {
    return { ok: false, refusal: row.refusal ?? 'conflict', reason: row.reason ?? 'Not allowed' };
  }
  return { ok: true, to: row.to(facts), effects: [...row.effects(facts)] };
}
