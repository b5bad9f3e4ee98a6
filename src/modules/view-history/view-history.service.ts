import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { InsufficientPrivilegesException, notFound, unprocessable } from '../../common/http/api-errors';
import { nowSeconds } from '../../database/columns';
import { PolicyService } from '../access/policy.service';
import type { ViewHistoryEntryDto } from './dto/view-history-entry.dto';
import type { ViewHistoryQueryDto } from './dto/view-history-query.dto';
import { ViewHistoryRepository, type ViewRow, type ViewWithUser } from './view-history.repository';

export type ViewedDocType = 'GUIDE' | 'WIKI';

/** Views are written in batches: after this delay, or sooner when this many are waiting. */
export const FLUSH_DELAY_MS = 1000;
export const FLUSH_BATCH = 500;
/** Repeated reads of the same document by the same user within this window count once. */
export const REPEAT_WINDOW_SECONDS = 60;
const MAX_REMEMBERED = 100_000;

const toEntry = (row: ViewWithUser): ViewHistoryEntryDto => ({
  userid: row.userid,
  username: row.username,
  doc_type: row.docType,
  docid: String(row.docid),
  date: row.date,
});

/**
 * Document view history. `record` is called on every authenticated guide or wiki read: it only queues
 * the view in memory (never awaits, never throws); queued views are written with one multi-row INSERT
 * per batch, off the request path, and flushed at shutdown.
 */
@Injectable()
export class ViewHistoryService implements OnApplicationShutdown {
  private readonly logger = new Logger(ViewHistoryService.name);
  private queue: ViewRow[] = [];
  private readonly lastSeen = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly views: ViewHistoryRepository,
    private readonly policy: PolicyService,
  ) {}

  record(userid: number, docType: ViewedDocType, docid: number): void {
    try {
      if (!Number.isInteger(userid) || !Number.isInteger(docid) || (docType !== 'GUIDE' && docType !== 'WIKI')) return;
      const date = nowSeconds();
      const key = `${userid}:${docType}:${docid}`;
      const last = this.lastSeen.get(key);
      if (last !== undefined && date - last < REPEAT_WINDOW_SECONDS) return;
      if (this.lastSeen.size >= MAX_REMEMBERED) this.lastSeen.clear();
      this.lastSeen.set(key, date);
      this.queue.push({ userid, docType, docid, date });
      if (this.queue.length >= FLUSH_BATCH) this.scheduleFlush(0);
      else this.scheduleFlush(FLUSH_DELAY_MS);
    } catch (error) {
      this.logger.warn({ err: error }, 'could not queue a view');
    }
  }

  /** Writes every queued view; resolves when done (tests, shutdown). Failures are logged, not thrown. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue.splice(0);
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  private scheduleFlush(delay: number): void {
    if (this.timer && delay > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delay);
    this.timer.unref();
  }

  private async write(batch: ViewRow[]): Promise<void> {
    if (!batch.length) return;
    const cutoff = nowSeconds() - REPEAT_WINDOW_SECONDS;
    for (const [key, seen] of this.lastSeen) if (seen < cutoff) this.lastSeen.delete(key);
    try {
      await this.views.insertMany(batch);
    } catch {
      // One bad row (e.g. a user deleted meanwhile) must not lose the others.
      for (const row of batch) {
        await this.views.insertMany([row]).catch((error: unknown) => {
          this.logger.warn({ err: error, view: row }, 'could not record a view');
        });
      }
    }
  }

  /** The views of one user: that user or an Admin. */
  async forUser(caller: AuthenticatedUser, userid: number, query: ViewHistoryQueryDto): Promise<ViewHistoryEntryDto[]> {
    if (caller.userid !== userid && !this.policy.isAdmin(caller)) {
      throw new InsufficientPrivilegesException(['Admin'], 'Only that user or an Admin may read this view history');
    }
    if (!(await this.views.userExists(userid))) throw notFound('User');
    const rows = await this.views.find({ ...this.range(query), userid, offset: query.offset, limit: query.limit });
    return rows.map(toEntry);
  }

  /** The views of one guide or wiki (the route is Moderator+). `docType` is case-insensitive. */
  async forDocument(docType: string, docid: number, query: ViewHistoryQueryDto): Promise<ViewHistoryEntryDto[]> {
    const type = docType.toUpperCase();
    if (type !== 'GUIDE' && type !== 'WIKI') throw unprocessable('doc_type must be guide or wiki', 'doc_type');
    const rows = await this.views.find({
      ...this.range(query),
      docType: type,
      docid,
      offset: query.offset,
      limit: query.limit,
    });
    return rows.map(toEntry);
  }

  private range(query: ViewHistoryQueryDto): { startDate?: number; endDate?: number } {
    return { startDate: query.start_date, endDate: query.end_date };
  }
}
