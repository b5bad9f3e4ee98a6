import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { requestContext } from '../../common/context/request-context';
import { ApiException } from '../../common/http/api-errors';
import { verifyPassword } from '../../common/security/password';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../audit/audit.service';
import { Clock } from '../clock/clock';
import { MailQueue } from '../mail/mail-queue';
import type { SignatureViewDto } from './dto/signature-view.dto';
import type { SignatureEntity, SignatureMeaning, SignatureMethod } from './entities/signature.entity';
import { SignaturesRepository } from './signatures.repository';
import { FAILURE_WINDOW_MS } from './signing-attempts';
import { SigningLockout, tooManyRequests } from './signing-lockout.service';

/** What the signature service needs to know of a user; the users module provides it. */
export interface SignerAccounts {
  credentials(
    userid: number,
  ): Promise<{ printedName: string; passwordHash: string | null; email: string | null } | null>;
}

/** The secret a signing call carries: the password, or a mailed one-time code (exactly one). */
export interface SignSecret {
  password?: string;
  sign_token?: string;
}

/** What a sign code is bound to: the subject (e.g. an approval request) and its stage. */
export interface SignBinding {
  subjectType: string;
  subjectId: string | number;
  stage?: string | number;
}

/** Proof that the signer re-entered their secret just now; `record` turns it into a signature. */
export interface SignerProof {
  readonly userid: number;
  readonly printedName: string;
  readonly method: SignatureMethod;
  /** The signer's failed attempts that had ended before this one began: `record` clears them. */
  readonly earlierFailures: readonly number[];
}

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_CODES_PER_WINDOW = 3;

const SIGNATURE_FAILED = 'Signature authentication failed';

/**
 * Electronic signatures (docs/signatures.md): password re-entry or a one-time mailed code, attempts
 * counted in the database (so the lockout holds across instances), and immutable signature records.
 *
 * Use in two steps: `verify()` outside any transaction (a wrong secret is recorded in its own
 * transaction and answered 403; a locked signer 429), then, inside the transaction that changes the
 * signed thing, `record()` with the proof.
 */
@Injectable()
export class SignatureService {
  private accounts: SignerAccounts | undefined;

  constructor(
    private readonly signatures: SignaturesRepository,
    private readonly transactions: TransactionService,
    private readonly lockout: SigningLockout,
    private readonly audit: AuditService,
    private readonly mail: MailQueue,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The users module registers how to read a signer's name and password hash. */
  useAccounts(accounts: SignerAccounts): void {
    this.accounts = accounts;
  }

  private async account(userid: number) {
    if (!this.accounts) throw new Error('SignatureService: no SignerAccounts registered');
    return this.accounts.credentials(userid);
  }

  /** Throws 429 while the signer is locked out (and audits the refused attempt). */
  assertNotLocked(signer: AuthenticatedUser): Promise<void> {
    return this.lockout.assertNotLocked(signer);
  }

  /**
   * Checks the re-entered secret of `signer` for `binding`. Outside any transaction: a failure must be
   * recorded even though the caller's change will not happen. The attempt is counted before its secret is
   * checked (SigningLockout): 429 when the signer is locked or has too many attempts under way.
   */
  async verify(signer: AuthenticatedUser, secret: SignSecret, binding: SignBinding): Promise<SignerProof> {
    if (this.transactions.current()) throw new Error('SignatureService.verify must run outside a transaction');
    const attempt = await this.lockout.begin(signer);
    const account = await this.account(signer.userid);
    const method: SignatureMethod = secret.sign_token !== undefined ? 'sign_token' : 'password';
    const ok =
      account !== null &&
      (method === 'sign_token'
        ? await this.spendCode(signer.userid, binding, secret.sign_token!)
        : await verifyPassword(account.passwordHash, secret.password ?? ''));
    if (!ok || !account) {
      const subject = { subject_type: binding.subjectType, subject_id: String(binding.subjectId) };
      await this.lockout.failed(signer, attempt, { method, ...subject });
      throw new ApiException(HttpStatus.FORBIDDEN, SIGNATURE_FAILED);
    }
    await this.lockout.passed(attempt);
    return {
      userid: signer.userid,
      printedName: account.printedName,
      method,
      earlierFailures: attempt.earlierFailures,
    };
  }

  /**
   * Writes the signature in the current transaction, with its audit row. `recordHash` is the SHA-256
   * of the canonical content that was signed.
   */
  async record(
    proof: SignerProof,
    subject: { type: string; id: string | number; meaning: SignatureMeaning; note?: string; recordHash: string },
  ): Promise<SignatureEntity> {
    return this.transactions.run(async () => {
      const signature = await this.signatures.insertSignature({
        subjectType: subject.type,
        subjectId: String(subject.id),
        userid: proof.userid,
        printedName: proof.printedName,
        meaning: subject.meaning,
        note: subject.note ?? '',
        signedAt: this.clock.nowSeconds(),
        authMethod: proof.method,
        recordHash: subject.recordHash,
        requestId: requestContext.current()?.requestId?.slice(0, 200) ?? null,
      });
      await this.lockout.cleared(proof.userid, proof);
      await this.audit.record({
        action: 'signature.create',
        entity: ['signature', signature.signatureid],
        after: {
          ...toSignatureView(signature),
          subject_type: subject.type,
          subject_id: String(subject.id),
          record_hash: subject.recordHash,
          auth_method: proof.method,
        },
      });
      return signature;
    });
  }

  /**
   * Mails a 6-digit one-time code bound to (signer, binding), valid 10 minutes; a new code voids the old
   * one; at most 3 per (signer, subject) in 15 minutes (429). The code is never returned.
   */
  async issueCode(signer: AuthenticatedUser, binding: SignBinding, about: string): Promise<{ expires_date: number }> {
    await this.assertNotLocked(signer);
    const now = this.clock.now();
    const subjectId = String(binding.subjectId);
    const account = await this.account(signer.userid);
    return this.transactions.run(async () => {
      const recent = await this.signatures.countCodesSince(
        signer.userid,
        binding.subjectType,
        subjectId,
        now - FAILURE_WINDOW_MS,
      );
      if (recent >= MAX_CODES_PER_WINDOW) throw tooManyRequests(FAILURE_WINDOW_MS, 'Too many sign codes requested');
      await this.signatures.voidCodes(signer.userid, binding.subjectType, subjectId, now);
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const expiresAt = now + CODE_TTL_MS;
      await this.signatures.insertCode({
        userid: signer.userid,
        subjectType: binding.subjectType,
        subjectId,
        stage: String(binding.stage ?? ''),
        codeHash: this.codeHash(signer.userid, binding, code),
        createdAt: now,
        expiresAt,
        spentAt: null,
      });
      await this.audit.record({
        action: 'signature.code_issued',
        entity: ['user', signer.userid],
        after: { subject_type: binding.subjectType, subject_id: subjectId, expires_date: Math.floor(expiresAt / 1000) },
      });
      if (account?.email) {
        await this.mail.enqueue({
          to: account.email,
          subject: `Your sign code: ${code}`,
          text: `Your one-time sign code for ${about} is ${code}. It is valid for 10 minutes and can be used once.\nIf you did not ask for it, ignore this message.`,
        });
      }
      return { expires_date: Math.floor(expiresAt / 1000) };
    });
  }

  private codeHash(userid: number, binding: SignBinding, code: string): string {
    return createHmac('sha256', this.config.signingSecret)
      .update(`${userid}:${binding.subjectType}:${binding.subjectId}:${binding.stage ?? ''}:${code}`)
      .digest('hex');
  }

  private async spendCode(userid: number, binding: SignBinding, code: string): Promise<boolean> {
    const now = this.clock.now();
    const live = await this.signatures.liveCode(
      userid,
      binding.subjectType,
      String(binding.subjectId),
      String(binding.stage ?? ''),
      now,
    );
    if (!live || !/^\d{6}$/.test(code)) return false;
    const expected = Buffer.from(live.codeHash, 'hex');
    const given = Buffer.from(this.codeHash(userid, binding, code), 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    return this.transactions.run(() => this.signatures.spendCode(live.codeid, now));
  }

  /** Signatures of a subject, oldest first. */
  forSubject(subjectType: string, subjectId: string | number): Promise<SignatureEntity[]> {
    return this.signatures.forSubject(subjectType, String(subjectId));
  }

  byIds(ids: number[]): Promise<SignatureEntity[]> {
    return this.signatures.findSignatures(ids);
  }
}

export const toSignatureView = (signature: SignatureEntity): SignatureViewDto => ({
  userid: signature.userid,
  printed_name: signature.printedName,
  signed_at: signature.signedAt,
  meaning: signature.meaning,
  note: signature.note,
});
