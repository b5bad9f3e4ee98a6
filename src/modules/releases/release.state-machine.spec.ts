import { RELEASE_STATUSES } from './entities/release.entity';
import { transition, type ReleaseAction, type ReleaseState } from './release.state-machine';

const STATES: ReleaseState[] = ['none', ...RELEASE_STATUSES];
const ACTIONS: ReleaseAction[] = ['create', 'approve', 'reject', 'delete'];

/** Every (state, action) pair with the facts that let it pass, and what it must answer (docs/enterprise/releases.md). */
const ALLOWED: Record<string, { to: string; effects: string[] }> = {
  'none:create': { to: 'released', effects: ['go_live', 'resolve_change_requests'] },
  'pending:approve': { to: 'released', effects: ['go_live', 'resolve_change_requests'] },
  'pending:reject': { to: 'rejected', effects: [] },
  'pending:delete': { to: 'cancelled', effects: ['cancel_request'] },
  'released:delete': { to: 'removed', effects: ['previous_goes_live'] },
};

const permissive = { pendingExists: false, gated: false, creatorOrModerator: true, admin: true };

describe('release state machine', () => {
  describe.each(STATES)('from %s', (from) => {
    it.each(ACTIONS)('%s', (action) => {
      const result = transition(from, action, permissive);
      const expected = ALLOWED[`${from}:${action}`];
      if (expected) expect(result).toEqual({ ok: true, ...expected });
      else expect(result).toEqual({ ok: false, refusal: 'conflict', reason: `A ${from} release cannot ${action}` });
    });
  });

  it('creates a pending release when a process resolves, opening its request', () => {
    expect(transition('none', 'create', { gated: true })).toEqual({
      ok: true,
      to: 'pending',
      effects: ['open_request'],
    });
  });

  it('refuses a create while another release is pending with 409', () => {
    for (const gated of [true, false]) {
      expect(transition('none', 'create', { pendingExists: true, gated })).toMatchObject({
        ok: false,
        refusal: 'conflict',
      });
    }
  });

  it('lets only the creator or a Moderator+ cancel a pending release (403 otherwise)', () => {
    expect(transition('pending', 'delete', { creatorOrModerator: false, admin: true })).toMatchObject({
      ok: false,
      refusal: 'forbidden',
    });
  });

  it('lets only an Admin remove a released release (403 otherwise)', () => {
    expect(transition('released', 'delete', { creatorOrModerator: true, admin: false })).toMatchObject({
      ok: false,
      refusal: 'forbidden',
    });
  });

  it('keeps terminal states final whatever the facts', () => {
    for (const from of ['rejected', 'cancelled', 'removed'] as const) {
      for (const action of ACTIONS) {
        expect(transition(from, action, permissive).ok).toBe(false);
        expect(transition(from, action, {}).ok).toBe(false);
      }
    }
  });
});
