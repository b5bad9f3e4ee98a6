import { Injectable } from '@nestjs/common';
import type { BadgeCountsDto } from './dto/user-response.dto';

type Batch<T> = (userids: number[]) => Promise<Map<number, T>>;

/**
 * Facts about users that other modules own and user responses show: the teams a user is in (teams) and
 * badge counts (reputation). Those modules register here at start-up, so the users module never
 * imports them (they import users). Until a module registers, its facts are empty.
 */
@Injectable()
export class UserFactsRegistry {
  private teams: Batch<number[]> = () => Promise.resolve(new Map<number, number[]>());
  private badges: Batch<BadgeCountsDto> = () => Promise.resolve(new Map<number, BadgeCountsDto>());

  provideTeamIds(batch: Batch<number[]>): void {
    this.teams = batch;
  }

  provideBadgeCounts(batch: Batch<BadgeCountsDto>): void {
    this.badges = batch;
  }

  teamIds(userids: number[]): Promise<Map<number, number[]>> {
    return userids.length ? this.teams(userids) : Promise.resolve(new Map<number, number[]>());
  }

  badgeCounts(userids: number[]): Promise<Map<number, BadgeCountsDto>> {
    return userids.length ? this.badges(userids) : Promise.resolve(new Map<number, BadgeCountsDto>());
  }
}
