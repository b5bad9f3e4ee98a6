import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { InsufficientPrivilegesException, notFound } from '../../common/http/api-errors';
import { StaleRevisionError } from '../../common/revisions/stale-revision.error';
import { nowSeconds } from '../../database/columns';
import { TransactionService, type Transaction } from '../../database/transaction.service';
import { PolicyService, type GuideAccessFacts } from '../access/policy.service';
import { MediaService } from '../media/media.service';
import type { GuideEntity } from './entities/guide.entity';
import { summaryDocument, type GuideDocument } from './guide-document';
import { GuideDocumentsService } from './guide-documents.service';
import { parseStored, sameData, type GuideData } from './guide-data';
import { GuideChanged, GuideRevised, guideFacts, type GuideChangedPayload } from './guide.events';
import { GuideReaderService } from './guide-reader.service';
import { GuidesRepository } from './guides.repository';
import { type StoredRevision } from './guide-rows';
import { GuideRevisionsRepository } from './guide-revisions.repository';

export interface EditContext {
  guide: GuideEntity;
  /** The newest source revision's data. */
  data: GuideData;
  facts: GuideAccessFacts;
  tx: Transaction;
}

/**
 * The write path every guide change goes through: lock the guide row, check access and the revisionid,
 * let the caller compute the new data, and save it as a new revision unless nothing changed. The
 * revision check is a conditional update on `head_revisionid` in the same transaction.
 */
@Injectable()
export class GuideEditorService {
  constructor(
    private readonly guides: GuidesRepository,
    private readonly revisions: GuideRevisionsRepository,
    private readonly documents: GuideDocumentsService,
    private readonly reader: GuideReaderService,
    private readonly policy: PolicyService,
    private readonly media: MediaService,
    private readonly transactions: TransactionService,
  ) {}

  /** 409 body: the newest version of the guide. */
  stale(guideid: number, caller: AuthenticatedUser): StaleRevisionError {
    return new StaleRevisionError(() =>
      this.reader.detail(guideid, caller, { unpatrolled: true, excludePrerequisiteSteps: true }),
    );
  }

  /** Locks and loads a guide for a write; 404 when missing, deleted or unreadable. */
  async load(guideid: number, caller: AuthenticatedUser) {
    const found = await this.guides.findGuideForWrite(guideid);
    if (!found) throw notFound('Guide');
    const { guide } = found;
    const facts: GuideAccessFacts = {
      authorid: guide.authorid,
      public: guide.public,
      grantedUserIds: found.grantedUserIds,
      grantedTeamIds: found.grantedTeamIds,
    };
    if (!(await this.policy.canReadGuide(caller, facts))) throw notFound('Guide');
    return { guide, facts };
  }

  async assertCanEdit(caller: AuthenticatedUser, facts: GuideAccessFacts): Promise<void> {
    if (!(await this.policy.canEditGuide(caller, facts))) {
      throw new InsufficientPrivilegesException(['Admin', 'Moderator'], 'You may not edit this guide');
    }
  }

  /**
   * Runs one edit. `expectedHead` (the request's revisionid) is compared with the newest revision;
   * `change` returns the new data, or undefined for no change.
   */
  /**
   * `answer`, when given, runs in the same transaction after the new revision is saved, so the answer to a
   * write shows that write (read after the commit, it could show another writer's newer revision).
   */
  async edit<A = void>(
    guideid: number,
    caller: AuthenticatedUser,
    expectedHead: number | undefined,
    change: (context: EditContext) => Promise<GuideData | undefined>,
    answer?: (tx: Transaction) => Promise<A>,
  ): Promise<A | undefined> {
    return this.transactions.run(async (tx) => {
      const { guide, facts } = await this.load(guideid, caller);
      if (guide.deleted) throw notFound('Guide');
      await this.assertCanEdit(caller, facts);
      if (expectedHead !== undefined && expectedHead !== guide.headRevisionid) throw this.stale(guideid, caller);
      const head = (await this.revisions.findRevisions([guide.headRevisionid])).get(guide.headRevisionid);
      const data = parseStored<GuideData>(head?.data);
      const next = await change({ guide, data, facts, tx });
      if (!next || sameData(next, data)) return undefined;
      await this.saveRevision(guide, next, caller, tx, head);
      return answer?.(tx);
    });
  }

  /** A revision is patrolled when saved by a Moderator+ or by the guide's author. */
  patrols(caller: AuthenticatedUser, authorid: number): boolean {
    return this.policy.has(caller, 'Moderator') || caller.userid === authorid;
  }

  /** `previous` (the revision edited) lends its rendered steps to the steps this revision did not change. */
  async saveRevision(
    guide: GuideEntity,
    data: GuideData,
    caller: AuthenticatedUser,
    tx: Transaction,
    previous?: StoredRevision,
  ): Promise<SavedRevision> {
    const now = nowSeconds();
    const patrolled = this.patrols(caller, guide.authorid);
    const document = await this.documents.buildSource(guide.guideid, data, previous);
    const revisionid = await this.revisions.insertRevision({
      guideid: guide.guideid,
      langid: guide.langid,
      userid: caller.userid,
      date: now,
      patrolled,
      data,
      ...this.documents.stored(document),
      summary: summaryDocument(document),
      renderKey: this.documents.renderKey,
    });
    const changes: Partial<GuideEntity> = { headRevisionid: revisionid };
    if (patrolled) {
      Object.assign(changes, {
        revisionid,
        category: data.category,
        title: data.title,
        type: data.type,
        public: data.public,
        flags: data.flags.join(','),
        modifiedDate: now,
        publishedDate: data.public && !guide.publishedDate ? now : guide.publishedDate,
      });
    }
    // Columns that keep their value stay out of the UPDATE (SQLite rewrites the index entries of every column set).
    const written: Partial<GuideEntity> = { headRevisionid: revisionid };
    for (const [key, value] of Object.entries(changes) as [keyof GuideEntity, unknown][])
      if (value !== guide[key]) Object.assign(written, { [key]: value });
    if (!(await this.guides.advanceGuide(guide.guideid, guide.headRevisionid, written))) {
      throw this.stale(guide.guideid, caller);
    }
    const shown =
      patrolled || !guide.revisionid
        ? document
        : parseStored<GuideDocument>(
            (await this.revisions.findRevisions([guide.revisionid])).get(guide.revisionid)?.document,
          );
    const used = [...imagesOf(document), ...(shown === document ? [] : imagesOf(shown))];
    // A guide's first revision has no usage rows to compare with: nothing to do when it shows no image.
    if (guide.headRevisionid || used.length) await this.media.setUsage('guide', guide.guideid, used);
    if (patrolled) {
      this.publishChange(tx, guide, { ...guide, ...changes });
      tx.publish(GuideRevised({ guideid: guide.guideid, langid: guide.langid }));
    }
    return {
      guide: Object.assign(Object.create(Object.getPrototypeOf(guide) as object) as GuideEntity, guide, changes),
      revision: {
        revisionid,
        langid: guide.langid,
        date: now,
        patrolled,
        document,
        renderKey: this.documents.renderKey,
      },
    };
  }

  publishChange(tx: Transaction, before: GuideEntity | null, after: GuideEntity | null): void {
    const payload: GuideChangedPayload = {
      guideid: (after ?? before)?.guideid as number,
      before: before && before.revisionid ? guideFacts(before) : null,
      after: after ? guideFacts(after) : null,
    };
    if (sameData(payload.before, payload.after)) return;
    tx.publish(GuideChanged(payload));
  }
}

/** What saveRevision wrote: the guide row after it, and the new revision with its document as an object. */
export interface SavedRevision {
  guide: GuideEntity;
  revision: StoredRevision & { document: GuideDocument };
}

/** Main image and step images of a rendered revision (the images the guide keeps in use). */
export function imagesOf(document: GuideDocument | undefined): number[] {
  if (!document) return [];
  return [
    ...(document.image ? [document.image.id] : []),
    ...document.steps.flatMap((s) => s.media.data.map((i) => i.id)),
  ];
}
