import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { EventBus } from '../../common/events/event-bus';
import { nowSeconds } from '../../database/columns';
import { TransactionService, type Transaction } from '../../database/transaction.service';
import { UserEntity } from '../users/entities/user.entity';
import type { BadgeCountsDto } from '../users/dto/user-response.dto';
import { BADGE, BADGES, completionBadges, POPULAR_REPUTATION, publishingBadges, REPUTATION } from './badge-rules';
import type { UserBadgeDto } from './dto/badge.dto';
import {
  GUIDE_CHANGED,
  GUIDE_COMPLETED,
  TEAM_JOINED,
  USER_ABOUT_WRITTEN,
  type GuideChangedEvent,
  type GuideCompletedEvent,
} from './reputation.events';
import { ReputationRepository } from './reputation.repository';
import { badgeIconUrl } from '../icons/icon-urls';

const COLORS = { bronze: '#cd7f32', silver: '#c0c0c0', gold: '#ffd700' } as const;

/** Runs tasks one after another per key; keeps awards for one user from contending with each other. */
class KeyedQueue {
  private readonly tails = new Map<number, Promise<unknown>>();

  run<T>(key: number, task: () => Promise<T>): Promise<T> {
    const next = (this.tails.get(key) ?? Promise.resolve()).then(task, task);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}

/** Owns the reputation and badge rules; content modules only publish events. */
@Injectable()
export class ReputationService implements OnModuleInit {
  private readonly perUser = new KeyedQueue();

  constructor(
    private readonly repository: ReputationRepository,
    private readonly transactions: TransactionService,
    private readonly events: EventBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.events.on(GUIDE_CHANGED, (e) => {
      const event = e.payload as GuideChangedEvent;
      return event.after ? this.perUser.run(event.after.authorid, () => this.onGuideChanged(event)) : undefined;
    });
    this.events.on(GUIDE_COMPLETED, (e) => {
      const event = e.payload as GuideCompletedEvent;
      return this.perUser.run(event.userid, () => this.onGuideCompleted(event));
    });
    this.events.on(TEAM_JOINED, (e) => {
      const { userid } = e.payload as { userid: number };
      return this.perUser.run(userid, () => this.awardBadges(userid, [BADGE.teammate]));
    });
    this.events.on(USER_ABOUT_WRITTEN, (e) => {
      const { userid } = e.payload as { userid: number };
      return this.perUser.run(userid, () => this.awardBadges(userid, [BADGE.autobiographer]));
    });
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

  private async onGuideChanged(event: GuideChangedEvent): Promise<void> {
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
      const published = await this.repository.countAwards(after.authorid, 'guide_published', tx.manager);
      await this.repository.award(after.authorid, publishingBadges(published), nowSeconds(), tx.manager);
    });
  }

  private async onGuideCompleted(event: GuideCompletedEvent): Promise<void> {
    await this.transactions.run(async (tx) => {
      const fresh = await this.grant(
        tx,
        event.userid,
        'guide_completed',
        String(event.guideid),
        REPUTATION.guideCompleted,
      );
      if (fresh) {
        const completed = await this.repository.countAwards(event.userid, 'guide_completed', tx.manager);
        await this.repository.award(event.userid, completionBadges(completed), nowSeconds(), tx.manager);
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
    const fresh = await this.repository.recordAward(
      { userid, kind, subject, points, createdDate: nowSeconds() },
      tx.manager,
    );
    if (!fresh) return false;
    const users = tx.manager.getRepository(UserEntity);
    await users.increment({ userid }, 'reputation', points);
    const user = await users.findOneBy({ userid });
    if (user && user.reputation >= POPULAR_REPUTATION) {
      await this.repository.award(userid, [BADGE.popular], nowSeconds(), tx.manager);
    }
    return true;
  }

  private async awardBadges(userid: number, badgeids: number[]): Promise<void> {
    await this.transactions.run((tx) => this.repository.award(userid, badgeids, nowSeconds(), tx.manager));
  }
}
