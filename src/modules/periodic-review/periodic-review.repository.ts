import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { insertReturningId } from '../../database/insert';
import { SqlReader } from '../../database/sql-reader';
import type { DocType } from '../../platform/documents/document-registry';
import { SignatureEntity } from '../../platform/signatures/entities/signature.entity';
import { ChangeRequestEntity } from './entities/change-request.entity';
import { ReviewDocumentEntity } from './entities/review-document.entity';
import { ReviewEntity } from './entities/review.entity';
import { ReviewScheduleEntity } from './entities/review-schedule.entity';
import { Database } from '../../database/database';

/** The SQL of periodic review's schedules, documents, reviews and change requests (the reviewer's document
 * lists and their states: review-documents.repository.ts). Writes join the open transaction (Database). */
@Injectable()
export class PeriodicReviewRepository {
  private readonly sql: SqlReader;

  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  insertSchedule(values: Omit<ReviewScheduleEntity, 'prsid'>): Promise<number> {
    return insertReturningId(this.manager, ReviewScheduleEntity, values);
  }

  /** A schedule that is not deleted, or null. */
  liveSchedule(prsid: number): Promise<ReviewScheduleEntity | null> {
    return this.manager.getRepository(ReviewScheduleEntity).findOneBy({ prsid, deletedDate: IsNull() });
  }

  async schedulesByIds(prsids: number[]): Promise<ReviewScheduleEntity[]> {
    if (!prsids.length) return [];
    return this.manager
      .createQueryBuilder(ReviewScheduleEntity, 's')
      .where('s.prsid IN (:...prsids)', { prsids: [...new Set(prsids)] })
      .getMany();
  }

  pageSchedules(offset: number, limit: number, order: 'ASC' | 'DESC'): Promise<ReviewScheduleEntity[]> {
    return this.manager
      .createQueryBuilder(ReviewScheduleEntity, 's')
      .where('s.deletedDate IS NULL')
      .orderBy('s.prsid', order)
      .offset(offset)
      .limit(limit)
      .getMany();
  }

  /** prsid → number of documents in the schedule, in one statement. */
  async documentCounts(prsids: number[]): Promise<Map<number, number>> {
    if (!prsids.length) return new Map();
    const rows = await this.manager
      .createQueryBuilder(ReviewDocumentEntity, 'd')
      .select('d.prsid', 'prsid')
      .addSelect('COUNT(*)', 'n')
      .where('d.prsid IN (:...prsids)', { prsids })
      .andWhere('d.memberSlot = 1')
      .groupBy('d.prsid')
      .getRawMany<{ prsid: number | string; n: number | string }>();
    return new Map(rows.map((r) => [Number(r.prsid), Number(r.n)]));
  }

  /** The documents currently in a schedule, by prdid. */
  documentsOf(prsid: number): Promise<ReviewDocumentEntity[]> {
    return this.manager.getRepository(ReviewDocumentEntity).find({
      where: { prsid, memberSlot: 1 },
      order: { prdid: 'ASC' },
    });
  }

  /** Memberships of these documents of one doctype (any schedule). */
  async membershipsOf(doctype: DocType, docids: number[]): Promise<ReviewDocumentEntity[]> {
    if (!docids.length) return [];
    return this.manager
      .createQueryBuilder(ReviewDocumentEntity, 'd')
      .where('d.doctype = :doctype', { doctype })
      .andWhere('d.docid IN (:...docids)', { docids })
      .andWhere('d.memberSlot = 1')
      .getMany();
  }

  /** Current memberships by prdid (removed ones are absent). */
  async liveDocuments(prdids: number[]): Promise<ReviewDocumentEntity[]> {
    if (!prdids.length) return [];
    return this.manager
      .createQueryBuilder(ReviewDocumentEntity, 'd')
      .where('d.prdid IN (:...prdids)', { prdids: [...new Set(prdids)] })
      .andWhere('d.memberSlot = 1')
      .getMany();
  }

  insertDocument(values: Omit<ReviewDocumentEntity, 'prdid'>): Promise<number> {
    return insertReturningId(this.manager, ReviewDocumentEntity, values);
  }

  /** Soft-removes memberships; answers how many rows changed. */
  async removeDocuments(prdids: number[], now: number): Promise<number> {
    if (!prdids.length) return 0;
    const result = await this.manager
      .createQueryBuilder()
      .update(ReviewDocumentEntity)
      .set({ memberSlot: null, removedDate: now })
      .where('prdid IN (:...prdids)', { prdids })
      .andWhere('member_slot = 1')
      .execute();
    return result.affected ?? 0;
  }

  /** Soft-deletes a live schedule and frees its documents; false when it was already gone. */
  async deleteSchedule(prsid: number, now: number): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(ReviewScheduleEntity)
      .set({ deletedDate: now })
      .where('prsid = :prsid AND deleted_date IS NULL', { prsid })
      .execute();
    if (!result.affected) return false;
    await this.manager
      .createQueryBuilder()
      .update(ReviewDocumentEntity)
      .set({ memberSlot: null, removedDate: now })
      .where('prsid = :prsid AND member_slot = 1', { prsid })
      .execute();
    return true;
  }

  /** Of these user ids, those that exist. */
  async existingUsers(userids: number[]): Promise<Set<number>> {
    if (!userids.length) return new Set();
    const rows = await this.manager.query<{ userid: number | string }[]>(
      `SELECT userid FROM users WHERE userid IN (${userids.map(() => '?').join(', ')})`,
      userids,
    );
    return new Set(rows.map((r) => Number(r.userid)));
  }

  /** teamid → name, in one statement. */
  async teamNames(teamids: number[]): Promise<Map<number, string>> {
    if (!teamids.length) return new Map();
    const ids = [...new Set(teamids)];
    const rows = await this.manager.query<{ teamid: number | string; name: string }[]>(
      `SELECT teamid, name FROM teams WHERE teamid IN (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    return new Map(rows.map((r) => [Number(r.teamid), r.name]));
  }

  /** Whether `userid` is a member of `teamid`. */
  async isTeamMember(teamid: number, userid: number): Promise<boolean> {
    const rows = await this.manager.query<unknown[]>(
      'SELECT 1 AS one FROM team_members WHERE teamid = ? AND userid = ?',
      [teamid, userid],
    );
    return rows.length > 0;
  }

  /**
   * Marks a document reviewed if its due date is still `expectedDue` (a concurrent review moves it first);
   * answers whether this call won.
   */
  async markReviewed(prdid: number, expectedDue: number, reviewedAt: number, nextDue: number): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(ReviewDocumentEntity)
      .set({ lastReviewedDate: reviewedAt, nextDueDate: nextDue, notifiedState: 'scheduled' })
      .where('prdid = :prdid AND member_slot = 1 AND next_due_date = :expectedDue', { prdid, expectedDue })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  insertReview(values: Omit<ReviewEntity, 'reviewid'>): Promise<number> {
    return insertReturningId(this.manager, ReviewEntity, values);
  }

  insertChangeRequest(values: Omit<ChangeRequestEntity, 'requestid'>): Promise<number> {
    return insertReturningId(this.manager, ChangeRequestEntity, values);
  }

  openRequestsOf(doctype: DocType, docid: number): Promise<ChangeRequestEntity[]> {
    return this.manager.getRepository(ChangeRequestEntity).find({
      where: { doctype, docid, status: 'open' },
      order: { requestid: 'ASC' },
    });
  }

  /** Resolves open change requests (by a release, or by a later `no_changes` review when releaseid is null). */
  async resolveRequests(requestids: number[], releaseid: number | null, now: number): Promise<void> {
    if (!requestids.length) return;
    await this.manager
      .createQueryBuilder()
      .update(ChangeRequestEntity)
      .set({ status: 'resolved', resolvedByReleaseid: releaseid, resolvedDate: now })
      .where('requestid IN (:...requestids)', { requestids })
      .andWhere("status = 'open'")
      .execute();
  }

  async reviewsByIds(reviewids: number[]): Promise<ReviewEntity[]> {
    if (!reviewids.length) return [];
    return this.manager
      .createQueryBuilder(ReviewEntity, 'r')
      .where('r.reviewid IN (:...reviewids)', { reviewids })
      .orderBy('r.reviewid', 'ASC')
      .getMany();
  }

  /** Change requests opened by these reviews. */
  async requestsOfReviews(reviewids: number[]): Promise<ChangeRequestEntity[]> {
    if (!reviewids.length) return [];
    return this.manager
      .createQueryBuilder(ChangeRequestEntity, 'c')
      .where('c.reviewid IN (:...reviewids)', { reviewids })
      .getMany();
  }

  async requestsByIds(requestids: number[]): Promise<ChangeRequestEntity[]> {
    if (!requestids.length) return [];
    return this.manager
      .createQueryBuilder(ChangeRequestEntity, 'c')
      .where('c.requestid IN (:...requestids)', { requestids })
      .orderBy('c.requestid', 'ASC')
      .getMany();
  }

  async signaturesByIds(signatureids: number[]): Promise<SignatureEntity[]> {
    if (!signatureids.length) return [];
    return this.manager
      .createQueryBuilder(SignatureEntity, 's')
      .where('s.signatureid IN (:...signatureids)', { signatureids })
      .getMany();
  }

  async pageReviewsBy(userid: number, offset: number, limit: number, order: 'ASC' | 'DESC'): Promise<ReviewEntity[]> {
    return this.manager
      .createQueryBuilder(ReviewEntity, 'r')
      .where('r.userid = :userid', { userid })
      .orderBy('r.reviewid', order)
      .offset(offset)
      .limit(limit)
      .getMany();
  }

  async pageRequestsOf(
    userid: number,
    status: 'open' | 'resolved' | undefined,
    offset: number,
    limit: number,
  ): Promise<ChangeRequestEntity[]> {
    const query = this.manager
      .createQueryBuilder(ChangeRequestEntity, 'c')
      .where('c.assigneeUserid = :userid', { userid });
    if (status) query.andWhere('c.status = :status', { status });
    return query.orderBy('c.requestid', 'ASC').offset(offset).limit(limit).getMany();
  }
}
