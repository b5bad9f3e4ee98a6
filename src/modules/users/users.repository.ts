import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { parsePrivileges } from '../../common/auth/privileges';
import { likeContains, placeholders, SqlReader, type SqlRow } from '../../database/sql-reader';
import { UserEntity } from './entities/user.entity';
import type { KnownUser } from './user-facts.registry';
import { Database } from '../../database/database';

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

const LIKE = "LIKE :partial ESCAPE '!'";

interface Statement {
  sql: string;
  parameters: unknown[];
}

const LIGHT_COLUMNS = 'u.userid, u.username, u.unique_username, u.join_date, u.reputation, u.imageid';

/**
 * The user search: the page with the number of all matches (a window count, so the table is scanned
 * once), and the count alone for a page past the end. Matches on the lower-cased names (and on the stored
 * lower-case e-mail for Admins); rank: exact unique_username, exact username, exact e-mail, then partial
 * matches in the same order; ties by userid.
 *
 * On SQLite the names are matched without LOWER(): its LIKE already folds ASCII case and LOWER() folds
 * nothing else, so the rows are the same, and a search (which reads every account) costs a quarter less.
 * MySQL keeps LOWER(), which a case-sensitive column collation would need.
 */
function searchStatements(search: UserSearch, sqlite: boolean): { page: Statement; count: Statement } {
  const exact = search.term.toLowerCase();
  const partial = likeContains(exact);
  const email = search.includeEmail;
  const folded = (column: string) => (sqlite ? column : `LOWER(${column})`);
  const unique = folded('u.unique_username');
  const name = folded('u.username');
  const where = [
    `(${unique} LIKE ? ESCAPE '!' OR ${name} LIKE ? ESCAPE '!'${email ? " OR u.email LIKE ? ESCAPE '!'" : ''})`,
    ...(search.uniqueOnly ? ['u.unique_username IS NOT NULL'] : []),
    ...(search.includeDisabled ? [] : ['u.enabled = 1 AND u.banned = 0']),
  ].join(' AND ');
  const whereParameters = email ? [partial, partial, partial] : [partial, partial];
  const rank = `CASE WHEN LOWER(u.unique_username) = ? THEN 0 WHEN LOWER(u.username) = ? THEN 1${email ? ' WHEN u.email = ? THEN 2' : ''}
    WHEN ${unique} LIKE ? ESCAPE '!' THEN 3 WHEN ${name} LIKE ? ESCAPE '!' THEN 4${email ? " WHEN u.email LIKE ? ESCAPE '!' THEN 5" : ''}
    ELSE 6 END`;
  const rankParameters = email ? [exact, exact, exact, partial, partial, partial] : [exact, exact, partial, partial];
  return {
    page: {
      sql: `SELECT ${LIGHT_COLUMNS}, ${rank} AS match_rank, COUNT(*) OVER () AS total
        FROM users u WHERE ${where} ORDER BY match_rank, u.userid LIMIT ? OFFSET ?`,
      parameters: [...rankParameters, ...whereParameters, search.limit, search.offset],
    },
    count: { sql: `SELECT COUNT(*) AS total FROM users u WHERE ${where}`, parameters: whereParameters },
  };
}

@Injectable()
export class UsersRepository {
  private readonly sql: SqlReader;
  private readonly toUser: (row: SqlRow) => UserEntity;

  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
    this.toUser = this.sql.hydrator(UserEntity);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  private repo() {
    return this.manager.getRepository(UserEntity);
  }

  async findById(userid: number): Promise<UserEntity | null> {
    const [row] = await this.sql.rows('SELECT * FROM users WHERE userid = ?', [userid]);
    return row ? this.toUser(row) : null;
  }

  async findByIds(userids: number[]): Promise<UserEntity[]> {
    if (!userids.length) return [];
    return (await this.sql.rows(`SELECT * FROM users WHERE userid IN (${placeholders(userids)})`, userids)).map(
      this.toUser,
    );
  }

  /** As findByIds, with a column more per user: `teamIdsSql` (a subquery of `u.userid`) as `team_ids`, raw. */
  async findByIdsWithTeams(userids: number[], teamIdsSql: string): Promise<KnownUser[]> {
    if (!userids.length) return [];
    const rows = await this.sql.rows(
      `SELECT u.*, ${teamIdsSql} AS team_ids FROM users u WHERE u.userid IN (${placeholders(userids)})`,
      userids,
    );
    return rows.map((row) => ({ user: this.toUser(row), teamIds: row.team_ids }));
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.repo().findOneBy({ email: email.toLowerCase() });
  }

  findByEmails(emails: string[]): Promise<UserEntity[]> {
    return emails.length ? this.repo().findBy({ email: In(emails) }) : Promise.resolve([]);
  }

  findBySsoUserid(ssoUserid: string): Promise<UserEntity | null> {
    return this.repo().findOneBy({ ssoUserid });
  }

  findByEmployeeId(employeeId: string): Promise<UserEntity | null> {
    return this.repo().findOneBy({ employeeId });
  }

  findByUniqueUsernames(names: string[]): Promise<UserEntity[]> {
    return names.length ? this.repo().findBy({ uniqueUsername: In(names) }) : Promise.resolve([]);
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
   * One query for the page and the total (a second one only for a page past the end). Rank: exact
   * unique_username, exact username, exact e-mail (Admins only), then partial matches in the same field
   * order; ties by userid. `teamIdsSql` (a subquery of `page.userid`): each user's team ids come with the
   * page, computed for the page's rows only.
   */
  async search(search: UserSearch, teamIdsSql?: string): Promise<{ users: KnownUser[]; total: number }> {
    const statements = searchStatements(search, this.sql.isSqlite);
    const sql = teamIdsSql
      ? `SELECT page.*, ${teamIdsSql} AS team_ids FROM (${statements.page.sql}) page ORDER BY page.match_rank, page.userid`
      : statements.page.sql;
    const page = await this.sql.rows(sql, statements.page.parameters);
    if (page.length) {
      return {
        users: page.map((row) => ({ user: this.toUser(row), teamIds: row.team_ids })),
        total: Number(page[0].total),
      };
    }
    if (search.offset === 0) return { users: [], total: 0 };
    const [count] = await this.sql.rows(statements.count.sql, statements.count.parameters);
    return { users: [], total: Number(count.total) };
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

  insert(user: Partial<UserEntity>): Promise<UserEntity> {
    const repo = this.repo();
    return repo.save(repo.create(user));
  }

  async update(userid: number, changes: Partial<UserEntity>): Promise<void> {
    if (Object.keys(changes).length) await this.repo().update({ userid }, changes);
  }

  async addReputation(userid: number, points: number): Promise<void> {
    await this.repo().increment({ userid }, 'reputation', points);
  }
}
