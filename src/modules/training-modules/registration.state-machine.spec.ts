import { REGISTRATION_STATUSES, type RegistrationStatus } from './entities/training-registration.entity';
import { registrationTransition } from './registration.state-machine';

const RANK: Record<RegistrationStatus, number> = {
  not_attempted: 0,
  incomplete: 1,
  completed: 2,
  failed: 3,
  passed: 4,
};

describe('registration state machine', () => {
  for (const from of REGISTRATION_STATUSES) {
    it(`${from} + no status → stays`, () => {
      expect(registrationTransition(from, undefined)).toEqual({ to: from, moved: false, finishes: false });
    });
    for (const requested of REGISTRATION_STATUSES) {
      const forward = RANK[requested] > RANK[from];
      const finishing = RANK[from] < 2 && RANK[requested] >= 2;
      it(`${from} + ${requested} → ${forward ? requested : `${from} (kept)`}`, () => {
        expect(registrationTransition(from, requested)).toEqual(
          forward ? { to: requested, moved: true, finishes: finishing } : { to: from, moved: false, finishes: false },
        );
      });
    }
  }
});
