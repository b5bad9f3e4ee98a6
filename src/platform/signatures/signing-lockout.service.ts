import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiException } from '../../common/http/api-errors';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../audit/audit.service';
import { Clock } from '../clock/clock';
import type { SignatureMethod } from './entities/signature.entity';
import { SignatureFailed } from './signature.events';
import { SignaturesRepository } from './signatures.repository';
import { admission, FAILURE_WINDOW_MS, failuresIn, LOCKOUT_MS, MAX_FAILURES } from './signing-attempts';

/** A counted attempt: its row, and the signer's failures that had ended before it began. */
export interface SigningAttempt {
  readonly attemptid: number;
  readonly earlierFailures: readonly number[];
}

/** What a failed attempt was about, for its audit row and event. */
export interface AttemptSubject {
  method: SignatureMethod;
  subject_type: string;
  subject_id: string;
}

export function tooManyRequests(retryAfterMs: number, message: string): ApiException {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const error = new ApiException(HttpStatus.TOO_MANY_REQUESTS, `${message}; try again in ${seconds} seconds`);
  error.headers = { 'retry-after': String(seconds) };
  return error;
}

const LOCKED = 'Signing is locked after repeated failures';

/**
 * The signing lockout (docs/signatures.md): each attempt is counted under the signer's row lock before its secret
 * is checked, then ended as failed or passed. Every step is its own short transaction, outside the caller's.
 */
@Injectable()
export class SigningLockout {
  constructor(
    private readonly signatures: SignaturesRepository,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** Throws 429 while the signer is locked out (and audits the refused attempt); counts nothing. */
  async assertNotLocked(signer: AuthenticatedUser): Promise<void> {
    const now = this.clock.now();
    const until = await this.signatures.lockedUntil(signer.userid, now);
    if (until === null) return;
    await this.transactions.run(() => this.auditRefusal(signer.userid, until, 'signing refused while locked'));
    throw tooManyRequests(until - now, LOCKED);
  }

  /** Counts an attempt, or answers 429 when the signer is locked or the window's attempts are used up. */
  async begin(signer: AuthenticatedUser): Promise<SigningAttempt> {
    const now = this.clock.now();
    const outcome = await this.transactions.run(async (): Promise<SigningAttempt | { retryAfterMs: number }> => {
      await this.signatures.lockSigner(signer.userid);
      const { lockedUntil, attempts } = await this.signatures.signerStanding(signer.userid, now - FAILURE_WINDOW_MS);
      if (lockedUntil > now) {
        await this.auditRefusal(signer.userid, lockedUntil, 'signing refused while locked');
        return { retryAfterMs: lockedUntil - now };
      }
      const admitted = admission(attempts, now);
      if (!admitted.admitted) {
        const reason = `${MAX_FAILURES} signing attempts failed or under way`;
        await this.auditRefusal(signer.userid, now + admitted.retryAfterMs, reason);
        return { retryAfterMs: admitted.retryAfterMs };
      }
      const attemptid = await this.signatures.insertAttempt(signer.userid, now);
      const earlierFailures = attempts.filter((a) => a.state === 'failed').map((a) => a.attemptid);
      return { attemptid, earlierFailures };
    });
    if ('retryAfterMs' in outcome) throw tooManyRequests(outcome.retryAfterMs, LOCKED);
    return outcome;
  }

  /** Ends a successful attempt: it keeps its place in the count a short while (signing-attempts.ts). */
  passed(attempt: SigningAttempt): Promise<void> {
    return this.transactions.single(() => this.signatures.endAttempt(attempt.attemptid, 'passed', this.clock.now()));
  }

  /** Ends a failed attempt (audited, with an event); the fifth failure of the window locks the signer. */
  async failed(signer: AuthenticatedUser, attempt: SigningAttempt, about: AttemptSubject): Promise<void> {
    const now = this.clock.now();
    await this.transactions.run(async (tx) => {
      await this.signatures.lockSigner(signer.userid);
      await this.signatures.endAttempt(attempt.attemptid, 'failed', now);
      const { attempts } = await this.signatures.signerStanding(signer.userid, now - FAILURE_WINDOW_MS);
      const failures = failuresIn(attempts);
      const lockedUntil = failures < MAX_FAILURES ? null : now + LOCKOUT_MS;
      await this.audit.record({
        action: 'signature.failed',
        entity: ['user', signer.userid],
        after: { ...about, failures },
      });
      tx.publish(
        SignatureFailed({
          userid: signer.userid,
          ...about,
          failures,
          locked_until: lockedUntil === null ? null : Math.floor(lockedUntil / 1000),
        }),
      );
      if (lockedUntil === null) return;
      await this.signatures.lock(signer.userid, lockedUntil);
      const reason = `${failures} failed signatures within ${FAILURE_WINDOW_MS / 60_000} minutes`;
      await this.auditRefusal(signer.userid, lockedUntil, reason);
    });
  }

  /** Inside the signing transaction: clears the failures that ended before the attempt began, and stale rows. */
  cleared(userid: number, attempt: Pick<SigningAttempt, 'earlierFailures'>): Promise<void> {
    return this.signatures.deleteAttempts(userid, attempt.earlierFailures, this.clock.now() - FAILURE_WINDOW_MS);
  }

  private auditRefusal(userid: number, until: number, reason: string): Promise<unknown> {
    return this.audit.record({
      action: 'signature.lockout',
      entity: ['user', userid],
      reason,
      after: { locked_until: Math.floor(until / 1000) },
    });
  }
}
