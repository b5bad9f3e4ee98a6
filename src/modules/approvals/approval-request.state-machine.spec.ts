import {
  REQUEST_ACTIONS,
  REQUEST_STATUSES,
  transition,
  type RequestAction,
  type RequestFacts,
  type RequestStatus,
} from './approval-request.state-machine';

const facts = (over: Partial<RequestFacts> = {}): RequestFacts => ({
  approvals: 1,
  requiredSignatures: 1,
  isLastStage: true,
  hasNote: true,
  ...over,
});

describe('approval request state machine (docs/enterprise/approvals.md)', () => {
  describe('from pending', () => {
    it('approve below the required count keeps the stage open and records the signature', () => {
      expect(transition('pending', 'approve', facts({ approvals: 1, requiredSignatures: 2 }))).toEqual({
        request: 'pending',
        stage: 'pending',
        effects: ['record_signature'],
        event: null,
      });
    });

    it('approve reaching the count on a middle stage opens the next stage', () => {
      expect(
        transition('pending', 'approve', facts({ approvals: 2, requiredSignatures: 2, isLastStage: false })),
      ).toEqual({
        request: 'pending',
        stage: 'approved',
        effects: ['record_signature', 'open_next_stage'],
        event: 'stage_approved',
      });
    });

    it('approve reaching the count on the last stage approves the request and releases', () => {
      expect(
        transition('pending', 'approve', facts({ approvals: 1, requiredSignatures: 1, isLastStage: true })),
      ).toEqual({
        request: 'approved',
        stage: 'approved',
        effects: ['record_signature', 'release_released'],
        event: 'approved',
      });
    });

    it('reject with a note rejects the stage, the request and the release and mails the requester', () => {
      expect(transition('pending', 'reject', facts({ hasNote: true }))).toEqual({
        request: 'rejected',
        stage: 'rejected',
        effects: ['record_signature', 'release_rejected', 'mail_requester'],
        event: 'rejected',
      });
    });

    it('reject without a note is refused', () => {
      expect(transition('pending', 'reject', facts({ hasNote: false }))).toEqual({ refused: 'note_required' });
    });

    it('cancel (the release was deleted) cancels and skips the open stage', () => {
      expect(transition('pending', 'cancel', facts())).toEqual({
        request: 'cancelled',
        stage: 'skipped',
        effects: [],
        event: 'cancelled',
      });
    });
  });

  const terminal = REQUEST_STATUSES.filter((s) => s !== 'pending');
  const pairs: [RequestStatus, RequestAction][] = terminal.flatMap((s) =>
    REQUEST_ACTIONS.map((a) => [s, a] as [RequestStatus, RequestAction]),
  );
  it.each(pairs)('%s is terminal: %s is refused as not pending', (status, action) => {
    for (const f of [
      facts(),
      facts({ hasNote: false }),
      facts({ approvals: 0, requiredSignatures: 3, isLastStage: false }),
    ]) {
      expect(transition(status, action, f)).toEqual({ refused: 'not_pending' });
    }
  });

  it('covers every (state, action) pair', () => {
    for (const status of REQUEST_STATUSES) {
      for (const action of REQUEST_ACTIONS) {
        expect(transition(status, action, facts())).toBeDefined();
      }
    }
    expect(REQUEST_STATUSES.length * REQUEST_ACTIONS.length).toBe(12);
  });
});
