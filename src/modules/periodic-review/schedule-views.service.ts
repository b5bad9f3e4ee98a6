import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { Clock } from '../../platform/clock/clock';
import {
  DOCTYPES,
  DocumentRegistry,
  type DocType,
  type DocumentInfo,
} from '../../platform/documents/document-registry';
import { UsersService } from '../users/users.service';
import type { ReviewDocumentDto, ScheduleDetailDto, ScheduleDto } from './dto/schedule-response.dto';
import type { ReviewDocumentEntity } from './entities/review-document.entity';
import type { ReviewScheduleEntity } from './entities/review-schedule.entity';
import { effectiveReviewerId, toReviewDocumentDto, toScheduleDto } from './periodic-review.mapper';
import { PeriodicReviewRepository } from './periodic-review.repository';
import type { LabelledDocumentRow } from './review-documents.repository';

/** doctype → docid → DocumentInfo. */
export type DocumentInfos = Map<DocType, Map<number, DocumentInfo>>;

/** Builds Schedule, ScheduleDetail and ReviewDocument bodies in batches (one query per level). */
@Injectable()
export class ScheduleViewsService {
  constructor(
    private readonly repository: PeriodicReviewRepository,
    private readonly documents: DocumentRegistry,
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  /** The documents' infos, one query per doctype. */
  async infos(rows: Pick<ReviewDocumentEntity, 'doctype' | 'docid'>[]): Promise<DocumentInfos> {
    const result: DocumentInfos = new Map();
    for (const doctype of DOCTYPES) {
      const ids = [...new Set(rows.filter((r) => r.doctype === doctype).map((r) => r.docid))];
      result.set(doctype, ids.length ? await this.documents.of(doctype).find(ids) : new Map<number, DocumentInfo>());
    }
    return result;
  }

  /** Of these rows, those whose document exists and `caller` may read. */
  async readableRows<T extends Pick<ReviewDocumentEntity, 'doctype' | 'docid'>>(
    caller: AuthenticatedUser,
    rows: T[],
  ): Promise<T[]> {
    const readable = new Map<DocType, Set<number>>();
    for (const doctype of DOCTYPES) {
      const ids = [...new Set(rows.filter((r) => r.doctype === doctype).map((r) => r.docid))];
      readable.set(doctype, ids.length ? await this.documents.of(doctype).readable(caller, ids) : new Set());
    }
    return rows.filter((r) => readable.get(r.doctype)?.has(r.docid));
  }

  async schedules(schedules: ReviewScheduleEntity[]): Promise<ScheduleDto[]> {
    const [counts, users, teams] = await Promise.all([
      this.repository.documentCounts(schedules.map((s) => s.prsid)),
      this.users.lightUsers(
        schedules.flatMap((s) => [s.createdByUserid, s.defaultReviewerUserid ?? s.createdByUserid]),
      ),
      this.repository.teamNames(schedules.flatMap((s) => (s.defaultTeamid === null ? [] : [s.defaultTeamid]))),
    ]);
    return schedules.map((s) => toScheduleDto(s, users, teams, counts.get(s.prsid) ?? 0));
  }

  /** ScheduleDetail with the documents `caller` may read (all documents for events, when caller is null). */
  async detail(schedule: ReviewScheduleEntity, caller: AuthenticatedUser | null): Promise<ScheduleDetailDto> {
    const all = await this.repository.documentsOf(schedule.prsid);
    const rows = caller ? await this.readableRows(caller, all) : all;
    const [[base], documents] = await Promise.all([this.schedules([schedule]), this.documentsOf(rows, [schedule])]);
    return { ...base, documents };
  }

  /** ReviewDocument bodies of rows that carry their schedule, label, reviewer and its teams: no statement but avatars. */
  async labelledDocuments(rows: LabelledDocumentRow[]): Promise<ReviewDocumentDto[]> {
    const reviewers = new Map(rows.flatMap((r) => (r.reviewer ? [[r.reviewer.user.userid, r.reviewer]] : [])));
    const users = await this.users.lightUsers([], [...reviewers.values()]);
    const now = this.clock.nowSeconds();
    return rows.map((r) =>
      toReviewDocumentDto(
        r.document,
        r.schedule,
        this.documents.of(r.document.doctype).labelFromSql(r.document.docid, r.label),
        users,
        now,
      ),
    );
  }

  /** ReviewDocument bodies, in the order of `rows`. */
  async documentsOf(rows: ReviewDocumentEntity[], schedules: ReviewScheduleEntity[]): Promise<ReviewDocumentDto[]> {
    if (!rows.length) return [];
    const byId = new Map(schedules.map((s) => [s.prsid, s]));
    const infos = await this.infos(rows);
    const info = (r: ReviewDocumentEntity) => infos.get(r.doctype)?.get(r.docid);
    const reviewerIds = rows.flatMap((r) => {
      const id = effectiveReviewerId(r, byId.get(r.prsid)!, info(r));
      return id === null ? [] : [id];
    });
    const users = await this.users.lightUsers(reviewerIds);
    const now = this.clock.nowSeconds();
    return rows.map((r) => toReviewDocumentDto(r, byId.get(r.prsid)!, info(r), users, now));
  }
}
