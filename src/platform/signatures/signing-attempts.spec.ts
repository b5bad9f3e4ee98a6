import { admission, FAILURE_WINDOW_MS, SUCCESS_HOLD_MS, type CountedAttempt } from './signing-attempts';

const NOW = 1_000_000_000;
let id = 0;
const at = (state: CountedAttempt['state'], ago = 0): CountedAttempt => ({
  attemptid: ++id,
  state,
  countedAt: NOW - ago,
});

describe('admission of a signing attempt', () => {
  it('admits while fewer than five attempts count', () => {
    expect(admission([], NOW)).toEqual({ admitted: true });
    expect(admission([at('failed'), at('failed'), at('pending'), at('failed')], NOW)).toEqual({ admitted: true });
  });

  it('five failures refuse until the oldest leaves the window', () => {
    const failures = [at('failed', 60_000), at('failed', 50_000), at('failed'), at('failed'), at('failed')];
    expect(admission(failures, NOW)).toEqual({ admitted: false, retryAfterMs: FAILURE_WINDOW_MS - 60_000 });
  });

  it('running attempts count: five under way refuse for a second', () => {
    expect(admission([at('pending'), at('pending'), at('failed'), at('pending'), at('failed')], NOW)).toEqual({
      admitted: false,
      retryAfterMs: 1000,
    });
  });

  it('a success counts while others run and for a few seconds after it, then no more', () => {
    const recent = [at('passed', 1000), at('failed'), at('failed'), at('failed'), at('failed')];
    expect(admission(recent, NOW)).toEqual({ admitted: false, retryAfterMs: SUCCESS_HOLD_MS - 1000 });
    const old = [at('passed', SUCCESS_HOLD_MS), at('failed'), at('failed'), at('failed'), at('failed')];
    expect(admission(old, NOW)).toEqual({ admitted: true });
    const beside = [at('passed', SUCCESS_HOLD_MS * 10), at('pending'), at('failed'), at('failed'), at('failed')];
    expect(admission(beside, NOW)).toEqual({ admitted: false, retryAfterMs: 1000 });
  });

  it('successes alone never refuse a signer who signs many things in a row', () => {
    const signings = Array.from({ length: 20 }, () => at('passed'));
    expect(admission(signings, NOW)).toEqual({ admitted: true });
  });
});
