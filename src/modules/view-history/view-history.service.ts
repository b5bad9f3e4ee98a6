import { isAdmin } from '../../common/auth/privileges';
import { Injectable, Logger } from '@nestjs/common';
import type { DocType } from '../../platform/documents/document-registry';
import type { DeliveredEvent } from '../../platform/events/domain-event';
import { EventBus } from '../../platform/events/event-bus';
import { OnEvents } from '../../platform/events/on-event.decorator';
import { GuideViewed, type GuideViewedPayload } from '../guides/guide.events';
import { WikiViewed, type WikiViewedPayload } from '../wikis/wiki.events';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { InsufficientPrivilegesException, notFound, unprocessable } from '../../common/http/api-errors';
import type { ViewHistoryEntryDto } from './dto/view-history-entry.dto';
import type { ViewHistoryQueryDto } from './dto/view-history-query.dto';
import { ViewHistoryRepository, type ViewRow, type ViewWithUser } from './view-history.repository';

export type ViewedDocType = DocType;

/** Repeated reads of the same document by the same user within this window count once (per instance). */
export const REPEAT_WINDOW_SECONDS = 60;

const toEntry = (row: ViewWithUser): ViewHistoryEntryDto => ({
  userid: row.userid,
  username: row.username,
  doc_type: row.docType,
  docid: String(row.docid),
  date: row.date,
});

/**
 * Document view history. Guides and wikis publish `guide.viewed` / `wiki.viewed` through the outbox when
 * an authenticated user reads them; this module writes them in batches (one multi-row INSERT per
 * delivery round), so a view survives a stop and the readers never depend on this module.
 */
@Injectable()
export class ViewHistoryService {
  private readonly logger = new Logger('ViewHistory');

  constructor(
    private readonly views: ViewHistoryRepository,
    private readonly events: EventBus,
  ) {}

  @OnEvents(GuideViewed, 'view-history.guides')
  async guidesViewed(events: DeliveredEvent<GuideViewedPayload>[]): Promise<void> {
    await this.write(
      events.map(({ payload: v }) => ({ userid: v.userid, docType: 'GUIDE', docid: v.guideid, date: v.date })),
    );
  }

  @OnEvents(WikiViewed, 'view-history.wikis')
  async wikisViewed(events: DeliveredEvent<WikiViewedPayload>[]): Promise<void> {
    await this.write(
      events.map(({ payload: v }) => ({ userid: v.userid, docType: 'WIKI', docid: v.wikiid, date: v.date })),
    );
  }

  /** One INSERT for the batch; when a row is refused (its user was deleted meanwhile), the others one by one. */
  private async write(rows: ViewRow[]): Promise<void> {
    try {
      await this.views.insertMany(rows);
    } catch {
      for (const row of rows) {
        await this.views
          .insertMany([row])
          .catch((error: unknown) => this.logger.warn({ err: error, view: row }, 'view dropped: its user is gone'));
      }
    }
  }

  /** Writes every view published so far (tests, scripts). */
  flush(): Promise<void> {
    return this.events.drain();
  }

  /** The views of one user: that user or an Admin. */
  async forUser(caller: AuthenticatedUser, userid: number, query: ViewHistoryQueryDto): Promise<ViewHistoryEntryDto[]> {
    if (caller.userid !== userid && !isAdmin(caller)) {
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
