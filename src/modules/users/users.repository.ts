import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import { parsePrivileges } from '../../common/auth/privileges';
import { UserEntity } from './entities/user.entity';

export interface UserListFilter {
  offset: number;
  limit: number;
  order: 'ASC' | 'DESC';
  joinedSince?: number;
  enabled?: boolean;
  banned?: boolean;
}

export interface UserSearch {
  term: string;
  includeEmail: boolean;
  uniqueOnly: boolean;
  includeDisabled: boolean;
  offset: number;
  limit: number;
}

/** Escapes LIKE wildcards so a search for "a_b" or "50%" means those characters. */
const likeContains = (term: string) => `%${term.replace(/[!%_]/g, (c) => `!${c}`)}%`;
const LIKE = "LIKE :partial ESCAPE '!'";

@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo(tx?: EntityManager) {
    return (tx ?? this.dataSource.manager).getRepository(UserEntity);
  }

  findById(userid: number, tx?: EntityManager): Promise<UserEntity | null> {
    return this.repo(tx).findOneBy({ userid });
  }

  findByIds(userids: number[]): Promise<UserEntity[]> {
    return userids.length ? this.repo().findBy({ userid: In(userids) }) : Promise.resolve([]);
  }

  findByEmail(email: string, tx?: EntityManager): Promise<UserEntity | null> {
    return this.repo(tx).findOneBy({ email: email.toLowerCase() });
  }

  findByEmails(emails: string[], tx?: EntityManager): Promise<UserEntity[]> {
    return emails.length ? this.repo(tx).findBy({ email: In(emails) }) : Promise.resolve([]);
  }

  findBySsoUserid(ssoUserid: string): Promise<UserEntity | null> {
    return this.repo().findOneBy({ ssoUserid });
  }

  findByEmployeeId(employeeId: string): Promise<UserEntity | null> {
    return this.repo().findOneBy({ employeeId });
  }

  findByUniqueUsernames(names: string[], tx?: EntityManager): Promise<UserEntity[]> {
    return names.length ? this.repo(tx).findBy({ uniqueUsername: In(names) }) : Promise.resolve([]);
  }

  /** The lowest-id account holding Admin (as stored), for seeding. */
  async firstAdmin(): Promise<UserEntity | null> {
    const admins = await this.repo()
      .createQueryBuilder('u')
      .where('u.privileges LIKE :admin', { admin: '%Admin%' })
      .orderBy('u.userid', 'ASC')
      .getMany();
    return admins.find((u) => parsePrivileges(u.privileges).includes('Admin')) ?? null;
  }

  async count(): Promise<number> {
    return this.repo().count();
  }

  list(filter: UserListFilter): Promise<UserEntity[]> {
    const query = this.repo().createQueryBuilder('u');
    if (filter.joinedSince !== undefined) query.andWhere('u.join_date >= :since', { since: filter.joinedSince });
    if (filter.enabled !== undefined) query.andWhere('u.enabled = :enabled', { enabled: filter.enabled });
    if (filter.banned !== undefined) query.andWhere(filter.banned ? 'u.banned > 0' : 'u.banned = 0');
    return query.orderBy('u.userid', filter.order).offset(filter.offset).limit(filter.limit).getMany();
  }

  listCreatedBy(offset: number, limit: number): Promise<UserEntity[]> {
    return this.repo()
      .createQueryBuilder('u')
      .where('u.created_by_userid IS NOT NULL')
      .orderBy('u.userid', 'DESC')
      .offset(offset)
      .limit(limit)
      .getMany();
  }

  /**
   * One query for the page and one for the total. Rank: exact unique_username, exact username, exact
   * e-mail (Admins only), then partial matches in the same field order; ties by userid.
   */
  async search(search: UserSearch): Promise<{ users: UserEntity[]; total: number }> {
    const exact = search.term.toLowerCase();
    const partial = likeContains(exact);
    const params = { exact, partial };
    const base = () => {
      const query = this.repo().createQueryBuilder('u');
      query.where(
        new Brackets((any) => {
          any.where(`LOWER(u.unique_username) ${LIKE}`, params);
          any.orWhere(`LOWER(u.username) ${LIKE}`, params);
          if (search.includeEmail) any.orWhere(`u.email ${LIKE}`, params);
        }),
      );
      if (search.uniqueOnly) query.andWhere('u.unique_username IS NOT NULL');
      if (!search.includeDisabled) query.andWhere('u.enabled = :enabled AND u.banned = 0', { enabled: true });
      return query;
    };
    const emailRank = search.includeEmail ? 'WHEN u.email = :exact THEN 2' : '';
    const emailPartial = search.includeEmail ? `WHEN u.email ${LIKE} THEN 5` : '';
    const rank = `CASE WHEN LOWER(u.unique_username) = :exact THEN 0 WHEN LOWER(u.username) = :exact THEN 1 ${emailRank}
      WHEN LOWER(u.unique_username) ${LIKE} THEN 3 WHEN LOWER(u.username) ${LIKE} THEN 4 ${emailPartial} ELSE 6 END`;
    const page: SelectQueryBuilder<UserEntity> = base()
      .addSelect(rank, 'match_rank')
      .orderBy('match_rank', 'ASC')
      .addOrderBy('u.userid', 'ASC')
      .offset(search.offset)
      .limit(search.limit)
      .setParameters(params);
    const [users, total] = await Promise.all([page.getMany(), base().getCount()]);
    return { users, total };
  }

  /** Deprecated name search: exact (case-insensitive) username or unique_username first, then partial, alphabetical. */
  async searchNames(term: string, offset: number, limit: number): Promise<{ users: UserEntity[]; total: number }> {
    const exact = term.toLowerCase();
    const partial = likeContains(exact);
    const base = () =>
      this.repo()
        .createQueryBuilder('u')
        .where(`(LOWER(u.username) ${LIKE} OR LOWER(u.unique_username) ${LIKE})`, { partial })
        .andWhere('u.enabled = :enabled AND u.banned = 0', { enabled: true });
    const page = base()
      .addSelect(
        'CASE WHEN LOWER(u.username) = :exact OR LOWER(u.unique_username) = :exact THEN 0 ELSE 1 END',
        'match_rank',
      )
      .setParameter('exact', exact)
      .orderBy('match_rank', 'ASC')
      .addOrderBy('LOWER(u.username)', 'ASC')
      .addOrderBy('u.userid', 'ASC')
      .offset(offset)
      .limit(limit);
    const [users, total] = await Promise.all([page.getMany(), base().getCount()]);
    return { users, total };
  }

  insert(user: Partial<UserEntity>, tx?: EntityManager): Promise<UserEntity> {
    const repo = this.repo(tx);
    return repo.save(repo.create(user));
  }

  async update(userid: number, changes: Partial<UserEntity>, tx?: EntityManager): Promise<void> {
    if (Object.keys(changes).length) await this.repo(tx).update({ userid }, changes);
  }

  async addReputation(userid: number, points: number, tx?: EntityManager): Promise<void> {
    await this.repo(tx).increment({ userid }, 'reputation', points);
  }
}
