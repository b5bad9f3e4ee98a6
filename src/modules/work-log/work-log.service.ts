import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import {
  ApiException,
  InsufficientPrivilegesException,
  notFound,
  RevisionConflictException,
  ValidationFailedException,
} from '../../common/http/api-errors';
import { TransactionService, type Transaction } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { DocumentRegistry } from '../../platform/documents/document-registry';
import { ReleaseDirectory } from '../../platform/documents/release-directory';
import type { EventType } from '../../platform/events/domain-event';
import { ResponseCache } from '../../platform/response-cache/response-cache';
import { PolicyService } from '../access/policy.service';
import { StepFormsService } from '../step-forms/step-forms.service';
import type { CreateEntryDto } from './dto/work-log-body.dto';
import type { WorkLogListQueryDto } from './dto/work-log-query.dto';
import type { FinishResultDto, WorkLogEntryDto, WorkLogListDto } from './dto/work-log-response.dto';
import type { WorkLogEntryEntity } from './entities/work-log-entry.entity';
import { toEntry, toFinishResult, newestValues } from './work-log.mapper';
import { WorkLogRepository } from './work-log.repository';
import {
  guardOf,
  transition,
  type EntryAction,
  type EntryMove,
  type EntryStatus,
} from './work-log-entry.state-machine';
import {
  WorkLogEntryAssumed,
  WorkLogEntryDeleted,
  WorkLogEntryPaused,
  WorkLogEntryResumed,
  WorkLogEntryStarted,
  WorkLogEntrySuspended,
  WorkOrderStatusChanged,
} from './work-log.events';

const EVENTS: Partial<Record<EntryAction, EventType<WorkLogEntryDto>>> = {
  pause: WorkLogEntryPaused,
  resume: WorkLogEntryResumed,
  suspend: WorkLogEntrySuspended,
  assume: WorkLogEntryAssumed,
  finish: WorkOrderStatusChanged,
  cancel: WorkOrderStatusChanged,
};

/** The tables a work-log list (W1) is read from: its cached answers are kept until one of them changes. */
export const WORK_LOG_ANSWER_SOURCES = [
  'work_log_entries',
  'work_log_data',
  'work_log_timings',
  'work_log_signoffs',
  'users',
];

/** Work-log entries (docs/enterprise/work-log.md): start, read, list, the moves of the state machine, delete. */
@Injectable()
export class WorkLogService {
  constructor(
    private readonly entries: WorkLogRepository,
    private readonly forms: StepFormsService,
    private readonly documents: DocumentRegistry,
    private readonly releases: ReleaseDirectory,
    private readonly policy: PolicyService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly answers: ResponseCache,
  ) {}

  /** The W2 body: the entry with its values, timings, sign-offs and the forms it fills (see formsAsOf's `checked`). */
  async detail(entry: WorkLogEntryEntity, formsToken?: string | null): Promise<WorkLogEntryDto> {
    const [children, forms] = await Promise.all([
      this.entries.children([entry.entryid]),
      this.forms.formsAsOf(entry.guideid, entry.maxFormRevisionid, formsToken),
    ]);
    return toEntry(entry, children.get(entry.entryid)!, this.clock.nowSeconds(), forms);
  }

  async detailById(entryid: number): Promise<WorkLogEntryDto> {
    const entry = await this.entries.findEntry(entryid);
    if (!entry) throw notFound('Entry');
    return this.detail(entry);
  }

  /** 409 whose body is the entry as it is now. */
  async conflict(entryid: number): Promise<RevisionConflictException> {
    return new RevisionConflictException(await this.detailById(entryid));
  }

  /** The entry for its owner or a Moderator+; 404 for anyone else (docs/enterprise/work-log.md). */
  async visible(entryid: number, caller: AuthenticatedUser): Promise<WorkLogEntryEntity> {
    const entry = await this.entries.findEntry(entryid);
    if (!entry || (entry.userid !== caller.userid && !this.policy.canModerate(caller))) throw notFound('Entry');
    return entry;
  }

  assertOwner(entry: WorkLogEntryEntity, caller: AuthenticatedUser): void {
    if (entry.userid !== caller.userid)
      throw new ApiException(HttpStatus.FORBIDDEN, 'Only the owner of this entry may do this');
  }

  async read(entryid: number, caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    return this.detail(await this.visible(entryid, caller));
  }

  /** W1; while an entry of the page is open (its duration grows with the clock), a cached page holds a second. */
  async list(query: WorkLogListQueryDto, caller: AuthenticatedUser): Promise<WorkLogListDto> {
    const now = this.clock.nowSeconds();
    const { body, ticking } = await this.page({ ...query, userid: this.listedUser(query, caller) }, now);
    if (ticking) this.answers.expiresAt((now + 1) * 1000);
    return body;
  }

  private listedUser(query: WorkLogListQueryDto, caller: AuthenticatedUser): number {
    const userid = query.userid ?? caller.userid;
    if (userid !== caller.userid && !this.policy.canModerate(caller)) {
      throw new InsufficientPrivilegesException(
        ['Admin', 'Moderator'],
        "Only a Moderator may list another user's entries",
      );
    }
    return userid;
  }

  /** W12: suspended entries of a guide the caller may read, whoever owns them. */
  async suspended(guideid: number, offset: number, limit: number, caller: AuthenticatedUser): Promise<WorkLogListDto> {
    await this.documents.requireReadable(caller, 'GUIDE', guideid);
    const filter = { guideid, status: 'suspended' as const, offset, limit, order: 'ASC' as const };
    return (await this.page(filter, this.clock.nowSeconds())).body;
  }

  /** `ticking`: an entry has no end time, so its duration (and a paused one's paused time) grows with the clock. */
  private async page(
    filter: Parameters<WorkLogRepository['listEntries']>[0],
    now: number,
  ): Promise<{ body: WorkLogListDto; ticking: boolean }> {
    const rows = await this.entries.listEntries(filter);
    const children = await this.entries.children(rows.map((e) => e.entryid));
    return {
      body: { results: rows.map((e) => toEntry(e, children.get(e.entryid)!, now)) },
      ticking: rows.some((e) => e.endtime === null),
    };
  }

  /** W3: pins the revision the caller reads and the release in force. */
  async start(body: CreateEntryDto, caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    const guide = await this.documents.requireReadable(caller, 'GUIDE', body.guideid);
    const release = await this.releases.liveOne('GUIDE', guide.docid, guide.langid);
    const editor = release ? (await this.documents.of('GUIDE').editable(caller, [guide.docid])).has(guide.docid) : true;
    const now = this.clock.nowSeconds();
    return this.transactions.run(async (tx) => {
      const values = {
        guideid: guide.docid,
        userid: caller.userid,
        workorderid: body.workorderid,
        status: 'started',
        starttime: now,
        endtime: null,
        guideRevisionid: release && !editor ? release.revisionid : guide.revisionid,
        maxFormRevisionid: await this.forms.maxFormRevision(guide.docid),
        releaseid: release?.releaseid ?? null,
        releaseVersion: release?.version ?? null,
        pausedSeconds: 0,
        pausedAt: null,
        currentStepid: null,
        timingid: null,
        writeCount: 0,
        deleted: false,
      };
      const entryid = await this.entries.insertEntry(values);
      const created = await this.detail({ entryid, ...values });
      await this.audit.record({ action: 'work_log.start', entity: ['work_log_entry', entryid], after: created });
      tx.publish(WorkLogEntryStarted(created));
      return created;
    });
  }

  /** Check order: 404 (not visible) → 403 (guard) → 409 (move not in the table). */
  private async loadFor(entryid: number, action: EntryAction, caller: AuthenticatedUser) {
    const guard = guardOf(action);
    let entry: WorkLogEntryEntity;
    if (guard === 'reader') {
      const found = await this.entries.findEntry(entryid);
      if (!found) throw notFound('Entry');
      await this.documents.requireReadable(caller, 'GUIDE', found.guideid);
      entry = found;
    } else {
      entry = await this.visible(entryid, caller);
      if (guard === 'owner') this.assertOwner(entry, caller);
    }
    const move = transition(entry.status as EntryStatus, action);
    if (!move) throw new RevisionConflictException(await this.detail(entry));
    return { entry, move };
  }

  async pause(entryid: number, caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    const { entry, move } = await this.loadFor(entryid, 'pause', caller);
    return this.apply(entry, move, caller);
  }

  async resume(entryid: number, caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    const { entry, move } = await this.loadFor(entryid, 'resume', caller);
    return this.apply(entry, move, caller);
  }

  async suspend(entryid: number, caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    const { entry, move } = await this.loadFor(entryid, 'suspend', caller);
    return this.apply(entry, move, caller);
  }

  async assume(entryid: number, caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    const { entry, move } = await this.loadFor(entryid, 'assume', caller);
    return this.apply(entry, move, caller);
  }

  async cancel(entryid: number, reason: string | undefined, caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    const { entry, move } = await this.loadFor(entryid, 'cancel', caller);
    return this.apply(entry, move, caller, reason);
  }

  async finish(entryid: number, caller: AuthenticatedUser): Promise<FinishResultDto> {
    const { entry, move } = await this.loadFor(entryid, 'finish', caller);
    if (move.idempotent) return toFinishResult(entry);
    if (await this.entries.pendingSignoff(entry.entryid)) throw new RevisionConflictException(await this.detail(entry));
    await this.assertRequirementsMet(entry);
    const current = (await this.documents.of('GUIDE').find([entry.guideid])).get(entry.guideid);
    await this.apply(entry, move, caller, undefined, current?.revisionid);
    return toFinishResult((await this.entries.findEntry(entry.entryid))!);
  }

  /** The requirements at finish (docs/enterprise/work-log.md): each gap is one 422 error. */
  private async assertRequirementsMet(entry: WorkLogEntryEntity): Promise<void> {
    const [forms, children] = await Promise.all([
      this.forms.formsAsOf(entry.guideid, entry.maxFormRevisionid),
      this.entries.children([entry.entryid]),
    ]);
    const { data, signoffs } = children.get(entry.entryid)!;
    const filled = new Set(
      newestValues(data)
        .filter((v) => v.value !== '')
        .map((v) => v.field_guid),
    );
    const errors = forms.flatMap((form) => [
      ...form.fields
        .filter((f) => f.required && !filled.has(f.field_guid))
        .map((f) => ({ message: `${f.label} is required`, field: `fields.${f.field_revisionid}` })),
      ...(form.signoff_teamid !== null && !signoffs.some((s) => s.stepid === form.stepid && s.status === 'approved')
        ? [{ message: 'This step needs an approved sign-off', field: `signoffs.${form.stepid}` }]
        : []),
    ]);
    if (errors.length) throw new ValidationFailedException(errors, 'The entry does not meet its requirements');
  }

  /** One move: conditional update from the loaded state, timing effects, audit row and event, in one transaction. */
  private async apply(
    entry: WorkLogEntryEntity,
    move: EntryMove,
    caller: AuthenticatedUser,
    reason?: string,
    currentRevisionid?: number,
  ): Promise<WorkLogEntryDto> {
    const now = this.clock.nowSeconds();
    return this.transactions.run(async (tx) => {
      const changes: Partial<WorkLogEntryEntity> = { status: move.to };
      for (const effect of move.effects) {
        if (effect === 'close_timing' && entry.timingid) await this.entries.closeTiming(entry.timingid, now);
        if (effect === 'start_pause_clock') changes.pausedAt = now;
        if (effect === 'stop_pause_clock') {
          changes.pausedSeconds = entry.pausedSeconds + (entry.pausedAt ? now - entry.pausedAt : 0);
          changes.pausedAt = null;
        }
        if (effect === 'change_owner') changes.userid = caller.userid;
        if (effect === 'set_endtime') changes.endtime = now;
        if (effect === 'pin_current_revision' && currentRevisionid) changes.guideRevisionid = currentRevisionid;
        if (effect === 'reopen_timing' && entry.currentStepid) {
          changes.timingid = await this.entries.insertTiming({
            entryid: entry.entryid,
            stepid: entry.currentStepid,
            dateStart: now,
            dateEnd: null,
          });
        }
      }
      if (!(await this.entries.updateEntry(entry.entryid, move.from, changes))) {
        throw await this.conflict(entry.entryid);
      }
      const after = { ...entry, ...changes };
      const body = await this.detail(after);
      await this.audit.record({
        action: `work_log.${move.action}`,
        entity: ['work_log_entry', entry.entryid],
        before: { status: entry.status, userid: entry.userid },
        after: {
          status: after.status,
          userid: after.userid,
          endtime: after.endtime,
          guide_revisionid: after.guideRevisionid,
        },
        reason: reason ?? null,
      });
      this.publish(tx, move.action, body);
      return body;
    });
  }

  private publish(tx: Transaction, action: EntryAction, body: WorkLogEntryDto): void {
    const event = EVENTS[action];
    if (event) tx.publish(event(body));
  }

  /** W11 (Admin): soft delete; the entry and its data leave every read. */
  async remove(entryid: number): Promise<void> {
    const entry = await this.entries.findEntry(entryid);
    if (!entry) throw notFound('Entry');
    const body = await this.detail(entry);
    await this.transactions.run(async (tx) => {
      if (!(await this.entries.softDelete(entryid))) throw notFound('Entry');
      await this.audit.record({ action: 'work_log.delete', entity: ['work_log_entry', entryid], before: body });
      tx.publish(WorkLogEntryDeleted(body));
    });
  }
}
