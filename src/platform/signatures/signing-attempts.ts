import type { SignatureAttemptState } from './entities/signature-attempt.entity';

/** The lockout: this many failed signatures within the window lock the signer's signing for LOCKOUT_MS. */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const LOCKOUT_MS = 15 * 60_000;
/** How long a success keeps its place in the count after it ended (it also keeps it while others run). */
export const SUCCESS_HOLD_MS = 10_000;

export interface CountedAttempt {
  readonly attemptid: number;
  readonly state: SignatureAttemptState;
  /** When it began; for a success, when it ended. */
  readonly countedAt: number;
}

export type Admission = { admitted: true } | { admitted: false; retryAfterMs: number };

/**
 * Whether another attempt may have its secret checked, given the signer's attempts of the failure window.
 * Attempts count from the moment they begin (so a burst is counted while it runs); failures count for the
 * window; a success counts while other attempts still run and for SUCCESS_HOLD_MS after it, so that a burst
 * holding one right secret still gets at most MAX_FAILURES checks. Successes alone never refuse.
 */
export function admission(attempts: readonly CountedAttempt[], now: number): Admission {
  const running = attempts.some((a) => a.state === 'pending');
  const counted = attempts.filter((a) => a.state !== 'passed' || running || a.countedAt > now - SUCCESS_HOLD_MS);
  // Successes alone never refuse: a signer who signs many things in a row is not held back.
  if (counted.length < MAX_FAILURES || counted.every((a) => a.state === 'passed')) return { admitted: true };
  // Attempts still running may end either way: try again shortly.
  if (running) return { admitted: false, retryAfterMs: 1000 };
  const leaves = (a: CountedAttempt) => a.countedAt + (a.state === 'passed' ? SUCCESS_HOLD_MS : FAILURE_WINDOW_MS);
  return { admitted: false, retryAfterMs: Math.min(...counted.map(leaves)) - now };
}

export const failuresIn = (attempts: readonly CountedAttempt[]): number =>
  attempts.filter((a) => a.state === 'failed').length;
