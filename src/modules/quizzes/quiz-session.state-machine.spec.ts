import {
  isTerminal,
  SESSION_ACTIONS,
  SESSION_STATUSES,
  sourcesOf,
  transition,
  type SessionAction,
  type SessionStatus,
} from './quiz-session.state-machine';

/** The session state machine of docs/enterprise/quizzes.md, one row per (state, action): the target state, or '-' for a 409 (a skip in batch moves). */
const EXPECTED: Record<SessionStatus, Record<SessionAction, SessionStatus | '-'>> = {
  in_progress: {
    save: 'in_progress',
    submit: 'submitted',
    cancel: 'cancelled',
    bulkCancel: 'cancelled',
    userInvalidateAll: 'invalidated',
  },
  submitted: { save: '-', submit: '-', cancel: '-', bulkCancel: '-', userInvalidateAll: 'invalidated' },
  cancelled: { save: '-', submit: '-', cancel: '-', bulkCancel: '-', userInvalidateAll: '-' },
  invalidated: { save: '-', submit: '-', cancel: '-', bulkCancel: '-', userInvalidateAll: '-' },
};

describe('quiz session state machine', () => {
  for (const from of SESSION_STATUSES) {
    for (const action of SESSION_ACTIONS) {
      it(`${from} --${action}--> ${EXPECTED[from][action]}`, () => {
        expect(transition(from, action)?.to ?? '-').toBe(EXPECTED[from][action]);
      });
    }
  }

  it('grades only on submit and records who invalidated only on userInvalidateAll', () => {
    expect(transition('in_progress', 'submit')?.effects).toContain('grade');
    expect(transition('in_progress', 'save')?.effects).toEqual(['merge_answers']);
    expect(transition('submitted', 'userInvalidateAll')?.effects).toEqual(['record_invalidation']);
  });

  it('guards: the owner saves and submits, the owner or a Moderator cancels, Moderators batch', () => {
    expect(transition('in_progress', 'save')?.guard).toBe('owner');
    expect(transition('in_progress', 'submit')?.guard).toBe('owner');
    expect(transition('in_progress', 'cancel')?.guard).toBe('owner_or_moderator');
    expect(transition('in_progress', 'bulkCancel')?.guard).toBe('moderator');
    expect(transition('submitted', 'userInvalidateAll')?.guard).toBe('moderator');
  });

  it('knows the source states of batch moves and the terminal states', () => {
    expect(sourcesOf('userInvalidateAll')).toEqual(['in_progress', 'submitted']);
    expect(sourcesOf('bulkCancel')).toEqual(['in_progress']);
    expect(SESSION_STATUSES.filter(isTerminal)).toEqual(['cancelled', 'invalidated']);
  });
});
