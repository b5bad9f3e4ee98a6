import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { DeliveredEvent } from '../../platform/events/domain-event';
import { OnEvent, OnEvents } from '../../platform/events/on-event.decorator';
import { nowSeconds } from '../../database/columns';
import { TransactionService, type Transaction } from '../../database/transaction.service';
import { UsersService } from '../users/users.service';
import type { BadgeCountsDto } from '../users/dto/user-response.dto';
import { BADGE, BADGES, completionBadges, POPULAR_REPUTATION, publishingBadges, REPUTATION } from './badge-rules';
import type { UserBadgeDto } from './dto/badge.dto';
import {
  GuideChanged,
  GuideCompleted,
  type GuideChangedPayload,
  type GuideCompletedPayload,
} from '../guides/guide.events';
import { TeamJoined, type TeamJoinedPayload } from '../teams/team.events';
import { UserAboutWritten, type UserAboutWrittenPayload } from '../users/user.events';
import { ReputationRepository } from './reputation.repository';
import { badgeIconUrl } from '../../common/flags/icon-urls';

const COLORS = { bronze: '#cd7f32', silver: '#c0c0c0', gold: '#ffd700' } as const;

/**
 * Owns the reputation and badge rules; content modules only publish events. Each event is delivered in
 * a transaction of its own (the outbox), together with its delivery record, so points are granted
 * exactly once per event and survive a crash between the change and the award.
 */
@Injectable()
export class ReputationService {
  constructor(
    private readonly repository: ReputationRepository,
    private readonly transactions: TransactionService,
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A batch is one transaction (the grants join it); events arrive in eventid order. */
  @OnEvents(GuideChanged, 'reputation.guide-published')
  async guidesChanged(events: DeliveredEvent<GuideChangedPayload>[]): Promise<void> {
    for (const { payload } of events) await this.onGuideChanged(payload);
  }

  @OnEvent(TeamJoined, 'reputation.teammate')
  async teamJoined({ userid }: TeamJoinedPayload): Promise<void> {
    await this.awardBadges(userid, [BADGE.teammate]);
  }

  @OnEvent(UserAboutWritten, 'reputation.autobiographer')
  async aboutWritten({ userid }: UserAboutWrittenPayload): Promise<void> {
    await this.awardBadges(userid, [BADGE.autobiographer]);
  }

  async badgeCounts(userids: number[]): Promise<Map<number, BadgeCountsDto>> {
    const counts = new Map<number, BadgeCountsDto>(
      userids.map((id) => [id, { bronze: 0, silver: 0, gold: 0, total: 0 }]),
    );
    const typeOf = new Map(BADGES.map((b) => [b.badgeid, b.type]));
    for (const held of await this.repository.badgesOf(userids)) {
      const c = counts.get(held.userid);
      const type = typeOf.get(held.badgeid);
      if (!c || !type) continue;
      c[type] += 1;
      c.total += 1;
    }
    return counts;
  }

  /** Every badge with the user's earned state: earned ones newest first, then the rest by badgeid. */
  async badgesFor(userid: number, category?: string): Promise<UserBadgeDto[]> {
    const [held, holders] = await Promise.all([this.repository.badgesOf([userid]), this.repository.holdersPerBadge()]);
    const heldById = new Map(held.map((b) => [b.badgeid, b]));
    const list = BADGES.filter((b) => category === undefined || b.category === category).map((badge) => {
      const mine = heldById.get(badge.badgeid);
      return {
        earned: mine !== undefined,
        times_earned: mine?.timesEarned ?? 0,
        date: mine?.earnedDate ?? null,
        badge: {
          ...badge,
          num_users: holders.get(badge.badgeid) ?? 0,
          icon: null,
          image: badgeIconUrl(this.config.publicUrl, badge.badgeid),
          secondary_color: COLORS[badge.type],
        },
      };
    });
    return list.sort((a, b) =>
      a.earned !== b.earned
        ? Number(b.earned) - Number(a.earned)
        : a.earned
          ? (b.date ?? 0) - (a.date ?? 0) || a.badge.badgeid - b.badge.badgeid
          : a.badge.badgeid - b.badge.badgeid,
    );
  }

  private async onGuideChanged(event: GuideChangedPayload): Promise<void> {
    const after = event.after;
    if (!after || !after.public || after.deleted) return;
    await this.transactions.run(async (tx) => {
      const fresh = await this.grant(
        tx,
        after.authorid,
        'guide_published',
        String(event.guideid),
        REPUTATION.guidePublished,
      );
      if (!fresh) return;
      const published = await this.repository.countAwards(after.authorid, 'guide_published');
      await this.repository.award(after.authorid, publishingBadges(published), nowSeconds());
    });
  }

  @OnEvent(GuideCompleted, 'reputation.guide-completed')
  async onGuideCompleted(event: GuideCompletedPayload): Promise<void> {
    await this.transactions.run(async (tx) => {
      const fresh = await this.grant(
        tx,
        event.userid,
        'guide_completed',
        String(event.guideid),
        REPUTATION.guideCompleted,
      );
      if (fresh) {
        const completed = await this.repository.countAwards(event.userid, 'guide_completed');
        await this.repository.award(event.userid, completionBadges(completed), nowSeconds());
      }
      if (event.authorid !== event.userid) {
        await this.grant(
          tx,
          event.authorid,
          'completed_by_other',
          `${event.guideid}:${event.userid}`,
          REPUTATION.guideCompletedByOther,
        );
      }
    });
  }

  private async grant(
    tx: Transaction,
    userid: number,
    kind: string,
    subject: string,
    points: number,
  ): Promise<boolean> {
    const fresh = await this.repository.recordAward({ userid, kind, subject, points, createdDate: nowSeconds() });
    if (!fresh) return false;
    const total = await this.users.addReputation(userid, points);
    if (total >= POPULAR_REPUTATION) {
      await this.repository.award(userid, [BADGE.popular], nowSeconds());
    }
    return true;
  }

  private async awardBadges(userid: number, badgeids: number[]): Promise<void> {
    await this.transactions.run(() => this.repository.award(userid, badgeids, nowSeconds()));
  }
}
