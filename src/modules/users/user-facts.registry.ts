import { Injectable } from '@nestjs/common';
import type { BadgeCountsDto } from './dto/user-response.dto';
import type { UserLightColumns } from './entities/user.entity';

type Batch<T> = (userids: number[]) => Promise<Map<number, T>>;

/** A correlated subquery of a user's team ids, comma-separated, for the user whose id is `userColumn`. */
export type TeamIdsSql = (userColumn: string) => string;

/**
 * MySQL cuts GROUP_CONCAT results at `group_concat_max_len` (1024 bytes by default) without an error: a
 * list this long may be cut, and is read again with teamIds (MariaDB's default is 1 MiB; SQLite has none).
 */
const CONCAT_SAFE_LENGTH = 1000;

/**
 * The team ids of a `teamIdsSql` column: ascending; undefined when the list may have been cut or the column
 * was not read (undefined).
 */
export function parseTeamIds(value: unknown): number[] | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '') return [];
  if (typeof value === 'number') return [value];
  if (typeof value !== 'string' || value.length >= CONCAT_SAFE_LENGTH) return undefined;
  return value
    .split(',')
    .map(Number)
    .sort((a, b) => a - b);
}

/** A user read with its light columns and, when the read asked for it, its `teamIdsSql` column (raw). */
export interface KnownUser {
  user: UserLightColumns;
  teamIds: unknown;
}

/**
 * Facts about users that other modules own and user responses show: the teams a user is in (teams) and
 * badge counts (reputation). Those modules register here at start-up, so the users module never
 * imports them (they import users). Until a module registers, its facts are empty.
 */
@Injectable()
export class UserFactsRegistry {
  private teams: Batch<number[]> = () => Promise.resolve(new Map<number, number[]>());
  private badges: Batch<BadgeCountsDto> = () => Promise.resolve(new Map<number, BadgeCountsDto>());
  private teamsSql: TeamIdsSql | undefined;

  /** `sql`: the same facts as a subquery, so that a statement reading users can read their teams too. */
  provideTeamIds(batch: Batch<number[]>, sql?: TeamIdsSql): void {
    this.teams = batch;
    this.teamsSql = sql;
  }

  /** The subquery of a user's team ids (see parseTeamIds), or undefined when teams are read separately. */
  teamIdsSql(userColumn: string): string | undefined {
    return this.teamsSql?.(userColumn);
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
