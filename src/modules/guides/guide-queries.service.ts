import { JsonText } from '../../common/http/json-text';
import { ResponseCache } from '../../platform/response-cache/response-cache';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { FEATURED_FLAGS } from '../../common/flags/guide-flags';
import { PolicyService } from '../access/policy.service';
import { EventBus } from '../../platform/events/event-bus';
import { Clock } from '../../platform/clock/clock';
import { RecentlySeen } from '../../common/recently-seen';
import { GuideViewed } from './guide.events';

/** One view per user and guide per minute (per instance). */
const VIEW_WINDOW_MS = 60_000;
import type { GuideDetailQueryDto, ListGuidesQueryDto } from './dto/guide-query.dto';
import type { GuideDetailDto, GuideSummaryDto } from './dto/guide-response.dto';
import { GuideMachineTranslationService } from './guide-machine-translation.service';
import { GuideReaderService } from './guide-reader.service';
import { GuideSummariesService } from './guide-summaries.service';
import { GuidesRepository } from './guides.repository';
import { type GuideListFilter } from './guide-rows';

const MAX_GUIDEIDS = 50;

/** GET /guides, /guides/featured and the guide detail read. */
@Injectable()
export class GuideQueriesService {
  private readonly recentViews = new RecentlySeen(VIEW_WINDOW_MS);

  constructor(
    private readonly guides: GuidesRepository,
    private readonly reader: GuideReaderService,
    private readonly summaries: GuideSummariesService,
    private readonly policy: PolicyService,
    private readonly events: EventBus,
    private readonly clock: Clock,
    private readonly machineTranslation: GuideMachineTranslationService,
    private readonly answers: ResponseCache,
  ) {}

  async list(query: ListGuidesQueryDto, caller?: AuthenticatedUser): Promise<GuideSummaryDto[]> {
    return this.summaries.summaries(await this.listRows(this.listFilter(query, caller), caller), caller);
  }

  private listFilter(query: ListGuidesQueryDto, caller: AuthenticatedUser | undefined): GuideListFilter {
    return {
      guideids: query.guideids
        ? [...new Set(query.guideids.split(',').map((id) => Number(id.trim())))].slice(0, MAX_GUIDEIDS)
        : undefined,
      types: query.filter ? query.filter.split(',').map((t) => t.trim()) : undefined,
      modifiedSince: query.modifiedSince,
      includePrivate: query.includePrivate && this.policy.isAdmin(caller),
      order: query.order,
      offset: query.offset,
      limit: query.limit,
    };
  }

  private listRows(filter: GuideListFilter, caller: AuthenticatedUser | undefined) {
    return this.guides.listRows(filter, { grants: this.grantsMatter(caller) });
  }

  /** Grants decide something only for a signed-in caller below Moderator: whether they may edit a guide. */
  private grantsMatter(caller: AuthenticatedUser | undefined): boolean {
    return caller !== undefined && !this.policy.has(caller, 'Moderator');
  }

  /**
   * The items `GET /guides?guideids=…` answers for these guides (public, non-deleted; any number of ids), in
   * the order given: what other modules show as guide summaries (GuideDirectory).
   */
  async summariesOf(guideids: number[], caller?: AuthenticatedUser): Promise<GuideSummaryDto[]> {
    const rows = await this.listRows(
      { guideids, includePrivate: false, order: 'ASC', offset: 0, limit: guideids.length },
      caller,
    );
    const byId = new Map(rows.map((row) => [row.guide.guideid, row]));
    const ordered = guideids.map((id) => byId.get(id)).filter((row) => row !== undefined);
    return this.summaries.summaries(ordered, caller);
  }

  async featured(query: { offset: number; limit: number }, caller?: AuthenticatedUser): Promise<GuideSummaryDto[]> {
    const rows = await this.guides.listRows(
      { featuredFlags: FEATURED_FLAGS, includePrivate: false, order: 'ASC', offset: query.offset, limit: query.limit },
      { grants: this.grantsMatter(caller) },
    );
    return this.summaries.summaries(rows, caller);
  }

  /**
   * `machineTranslateLangid` prefers a human translation into that language; without one, the version
   * shown is machine-translated (when a provider is configured).
   */
  async detail(
    guideid: number,
    query: GuideDetailQueryDto,
    caller?: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    const target = query.machineTranslateLangid;
    const read = (langid: string | undefined) =>
      this.reader.detail(guideid, caller, {
        unpatrolled: query.unpatrolled,
        langid,
        excludePrerequisiteSteps: query.excludePrerequisiteSteps,
      });
    let detail = await read(query.langid ?? target);
    if (target && detail.value().locale !== target) {
      const shown = detail.value();
      if (shown.available_langids.includes(target)) detail = await read(target);
      else {
        // The provider's text is not stored content: the answer is not kept (the response cache).
        this.answers.notKept();
        detail = JsonText.of(await this.machineTranslation.translate(shown, target));
      }
    }
    this.recordView(guideid, caller);
    return detail;
  }

  private recordView(guideid: number, caller: AuthenticatedUser | undefined): void {
    if (caller && this.recentViews.firstIn(`${caller.userid}:${guideid}`, this.clock.now())) {
      this.events.publishDetached(GuideViewed({ userid: caller.userid, guideid, date: this.clock.nowSeconds() }));
    }
  }
}
