import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull, MoreThan } from 'typeorm';
import { insertRows } from '../../database/insert';
import { SignCodeEntity } from './entities/sign-code.entity';
import { SignatureFailureEntity } from './entities/signature-failure.entity';
import { SignatureLockoutEntity } from './entities/signature-lockout.entity';
import { SignatureEntity } from './entities/signature.entity';

/** All SQL of signatures, failed attempts, lockouts and sign codes. Signatures are never updated. */
@Injectable()
export class SignaturesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get manager() {
    return this.dataSource.manager;
  }

  /** Until when the user is locked out (null: not locked), and whether failures are on record, in one statement. */
  async standing(userid: number, now: number): Promise<{ lockedUntil: number | null; hasFailures: boolean }> {
    const [row] = await this.manager.query<{ locked_until: number | string | null; failures: number | string }[]>(
      `SELECT (SELECT l.locked_until FROM signature_lockouts l WHERE l.userid = ? AND l.locked_until > ?) AS locked_until,
        EXISTS (SELECT 1 FROM signature_failures f WHERE f.userid = ?) AS failures`,
      [userid, now, userid],
    );
    return {
      lockedUntil: row?.locked_until === null || row?.locked_until === undefined ? null : Number(row.locked_until),
      hasFailures: Number(row?.failures ?? 0) > 0,
    };
  }

  /** Records a failure and answers how many the user has had since `since`. */
  async addFailure(userid: number, at: number, since: number): Promise<number> {
    await this.manager.insert(SignatureFailureEntity, { userid, failedAt: at });
    return this.manager.countBy(SignatureFailureEntity, { userid, failedAt: MoreThan(since) });
  }

  async lock(userid: number, until: number): Promise<void> {
    const updated = await this.manager.update(SignatureLockoutEntity, { userid }, { lockedUntil: until });
    if (!updated.affected) await this.manager.insert(SignatureLockoutEntity, { userid, lockedUntil: until });
  }

  async clearFailures(userid: number): Promise<void> {
    await this.manager.delete(SignatureFailureEntity, { userid });
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
