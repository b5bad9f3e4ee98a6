import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull, MoreThan, type EntityManager } from 'typeorm';
import { insertRows } from '../../database/insert';
import { SignCodeEntity } from './entities/sign-code.entity';
import { SignatureAttemptEntity, type SignatureAttemptState } from './entities/signature-attempt.entity';
import { SignatureLockoutEntity } from './entities/signature-lockout.entity';
import { SignatureEntity } from './entities/signature.entity';
import type { CountedAttempt } from './signing-attempts';
import { Database } from '../../database/database';

/** All SQL of signatures, signing attempts, lockouts and sign codes. Signatures are never updated. */
@Injectable()
export class SignaturesRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  /** Until when the user is locked out (null: not locked). */
  async lockedUntil(userid: number, now: number): Promise<number | null> {
    const row = await this.manager.findOne(SignatureLockoutEntity, { where: { userid, lockedUntil: MoreThan(now) } });
    return row ? row.lockedUntil : null;
  }

  /**
   * Takes the signer's row lock for the rest of the transaction (creating the row if needed), so that the
   * signer's attempts are counted one at a time in every instance. SQLite write transactions are already
   * serialized; on MySQL the upsert holds the row's exclusive lock until COMMIT.
   */
  async lockSigner(userid: number): Promise<void> {
    const sql =
      this.dataSource.options.type === 'better-sqlite3'
        ? 'INSERT INTO signature_lockouts (userid, locked_until) VALUES (?, 0) ON CONFLICT (userid) DO NOTHING'
        : 'INSERT INTO signature_lockouts (userid, locked_until) VALUES (?, 0) ON DUPLICATE KEY UPDATE locked_until = locked_until';
    await this.manager.query(sql, [userid]);
  }

  /**
   * Until when the signer is locked (0 when not), and their attempts counted after `since`, oldest first, in one
   * statement. The signer's row must exist (lockSigner).
   */
  async signerStanding(userid: number, since: number): Promise<{ lockedUntil: number; attempts: CountedAttempt[] }> {
    const rows = await this.manager.query<
      { locked_until: number | string; attemptid: number | null; counted_at: number | string; state: string }[]
    >(
      `SELECT l.locked_until, a.attemptid, a.counted_at, a.state
       FROM signature_lockouts l LEFT JOIN signature_attempts a ON a.userid = l.userid AND a.counted_at > ?
       WHERE l.userid = ? ORDER BY a.attemptid`,
      [since, userid],
    );
    return {
      lockedUntil: Number(rows[0]?.locked_until ?? 0),
      attempts: rows
        .filter((row) => row.attemptid !== null)
        .map((row) => ({
          attemptid: Number(row.attemptid),
          countedAt: Number(row.counted_at),
          state: row.state as SignatureAttemptState,
        })),
    };
  }

  async insertAttempt(userid: number, at: number): Promise<number> {
    const [attemptid] = await insertRows(this.manager, SignatureAttemptEntity, [
      { userid, countedAt: at, state: 'pending' },
    ]);
    return attemptid;
  }

  async endAttempt(attemptid: number, state: 'failed' | 'passed', at: number): Promise<void> {
    // A failure counts from when it began; a success from when it ended.
    const ended = state === 'passed' ? { state, countedAt: at } : { state };
    await this.manager.update(SignatureAttemptEntity, { attemptid }, ended);
  }

  /** Deletes the signer's attempts named, and those counted before `before` (out of every window). */
  async deleteAttempts(userid: number, attemptids: readonly number[], before: number): Promise<void> {
    const named = attemptids.length ? ` OR attemptid IN (${attemptids.map(() => '?').join(', ')})` : '';
    await this.manager.query(`DELETE FROM signature_attempts WHERE userid = ? AND (counted_at <= ?${named})`, [
      userid,
      before,
      ...attemptids,
    ]);
  }

  async lock(userid: number, until: number): Promise<void> {
    await this.manager.update(SignatureLockoutEntity, { userid }, { lockedUntil: until });
  }

  async insertSignature(row: Omit<SignatureEntity, 'signatureid'>): Promise<SignatureEntity> {
    const [signatureid] = await insertRows(this.manager, SignatureEntity, [row]);
    return { ...row, signatureid };
  }

  findSignatures(ids: number[]): Promise<SignatureEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.manager.findBy(SignatureEntity, { signatureid: In(ids) });
  }

  /** Signatures in id order from `afterId`, a batch at a time (audit verification). */
  batch(afterId: number, size: number): Promise<SignatureEntity[]> {
    return this.manager.find(SignatureEntity, {
      where: { signatureid: MoreThan(afterId) },
      order: { signatureid: 'ASC' },
      take: size,
    });
  }

  forSubject(subjectType: string, subjectId: string): Promise<SignatureEntity[]> {
    return this.manager.find(SignatureEntity, { where: { subjectType, subjectId }, order: { signatureid: 'ASC' } });
  }

  countCodesSince(userid: number, subjectType: string, subjectId: string, since: number): Promise<number> {
    return this.manager.countBy(SignCodeEntity, { userid, subjectType, subjectId, createdAt: MoreThan(since) });
  }

  /** Voids the user's unspent codes for the subject (a new code replaces them). */
  async voidCodes(userid: number, subjectType: string, subjectId: string, at: number): Promise<void> {
    await this.manager.update(SignCodeEntity, { userid, subjectType, subjectId, spentAt: IsNull() }, { spentAt: at });
  }

  async insertCode(row: Omit<SignCodeEntity, 'codeid'>): Promise<void> {
    await this.manager.insert(SignCodeEntity, row);
  }

  /** The live code for the binding (unspent, not expired). */
  liveCode(
    userid: number,
    subjectType: string,
    subjectId: string,
    stage: string,
    now: number,
  ): Promise<SignCodeEntity | null> {
    return this.manager.findOne(SignCodeEntity, {
      where: { userid, subjectType, subjectId, stage, spentAt: IsNull(), expiresAt: MoreThan(now) },
      order: { codeid: 'DESC' },
    });
  }

  /** Spends a code once; false when it was spent meanwhile. */
  async spendCode(codeid: number, at: number): Promise<boolean> {
    const result = await this.manager.update(SignCodeEntity, { codeid, spentAt: IsNull() }, { spentAt: at });
    return result.affected === 1;
  }
}
