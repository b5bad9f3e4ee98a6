import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ContentVersionsRepository } from './content-versions.repository';

/** Names of the versioned contents (one row each in `content_versions`). */
export type ContentName = 'category-tree' | 'step-forms' | 'releases' | AnswerToken;

/** The tokens whole cached answers are kept under (ResponseCache; the tables of each in answer-sources.ts). */
export type AnswerToken =
  | 'answers'
  | 'answers-guide'
  | 'answers-approvals'
  | 'answers-quizzes'
  | 'answers-reviews'
  | 'answers-search'
  | 'answers-worklog';

/**
 * The token of one document's answers kept under `family` (`answers-guide/7`): replaced by a write that declared
 * it changes that document (answer-sources.ts, changesDocument). One row, not slotted: writers of one document
 * already queue on its row lock.
 */
export const documentTokenName = (family: AnswerToken, documentid: number | string): string =>
  `${family}/${documentid}`;

/** Random per process (72 bits): tokens of two instances, or of one instance before and after a restart, never meet. */
const INSTANCE_PREFIX = randomBytes(9).toString('base64url');
let tokenSequence = 0;

/**
 * A token no instance has written before: this process's random prefix and a counter (at most 25 characters).
 * Drawing random bytes for each token cost about 10 µs a call (a write replaces several tokens).
 */
export const newVersionToken = (): string => `${INSTANCE_PREFIX}${(++tokenSequence).toString(36)}`;

/**
 * The upsert that gives `rows` contents a new token each (parameters: name, token per row); it locks only their
 * rows.
 */
export const replaceTokenSql = (dialect: 'sqlite' | 'mysql', rows = 1): string =>
  `INSERT INTO content_versions (name, token) VALUES ${Array(rows).fill('(?, ?)').join(', ')} ${
    dialect === 'sqlite'
      ? 'ON CONFLICT (name) DO UPDATE SET token = excluded.token'
      : 'ON DUPLICATE KEY UPDATE token = VALUES(token)'
  }`;

/**
 * On MySQL, answer tokens are kept in slots: a writer replaces the row `<token>@<slot>` of its connection's slot, and
 * the token is a digest of every slot's row. Every write of guides, wikis, users… replaces `answers`: with one row,
 * concurrent write transactions queued on its lock from their replacement to their COMMIT (a guide create waited 24
 * ms for it under load). Each connection of a process takes the next slot, from a random first one, so the
 * connections of one pool never share a slot and those of two instances rarely. SQLite runs one write transaction
 * at a time and keeps one row per token.
 */
export const ANSWER_TOKEN_SLOTS = 32;

const slots = new WeakMap<object, number>();
let nextSlot = randomBytes(1)[0] % ANSWER_TOKEN_SLOTS;

/** The slot of a MySQL connection (the driver's connection object): the same for as long as it lives. */
export function answerTokenSlotOf(connection: object): number {
  let slot = slots.get(connection);
  if (slot === undefined) {
    slot = nextSlot;
    nextSlot = (nextSlot + 1) % ANSWER_TOKEN_SLOTS;
    slots.set(connection, slot);
  }
  return slot;
}

/** The row of answer token `name` in `slot`. */
export const answerTokenRow = (name: AnswerToken, slot: number): string => `${name}@${slot}`;

const isAnswerToken = (name: string): name is AnswerToken => name.startsWith('answers') && !name.includes('/');

/**
 * `name`'s token as a scalar subquery (NULL when there is none). A statement that reads derived content's
 * sources selects it with its rows, so the token names the state those rows were read in.
 */
export const versionTokenSql = (name: ContentName): string =>
  `(SELECT token FROM content_versions WHERE name = '${name}')`;

/** A token column as read (`versionTokenSql(...) AS x`): the token, or null when the row had none. */
export const tokenColumn = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Versions of derived content kept in memory by readers (see ContentVersionEntity). A token is never a bare counter
 * (newVersionToken) so that a database emptied or restored under a running instance can never repeat a token it has
 * seen.
 */
@Injectable()
export class ContentVersions {
  private readonly repository: ContentVersionsRepository;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.repository = new ContentVersionsRepository(dataSource);
  }

  /** A new token for `name`, written in the open transaction (an upsert: it locks only its own row). */
  async bump(name: ContentName): Promise<void> {
    await this.repository.replace(replaceTokenSql(this.dialect), [name, newVersionToken()]);
  }

  /**
   * The stored token, or null when there is none (nothing may be kept then: no write would announce a change). An
   * answer token on MySQL: the MD5 of its rows' tokens, the row written before slots and every slot's.
   */
  async read(name: ContentName): Promise<string | null> {
    const [token] = await this.readAll([name]);
    return token;
  }

  /** The tokens of `names` (contents, or documents' tokens: documentTokenName) in one statement, in order. */
  async readAll(names: readonly string[]): Promise<(string | null)[]> {
    const columns: string[] = [];
    const parameters: string[] = [];
    names.forEach((name, i) => {
      if (isAnswerToken(name) && this.dialect === 'mysql') {
        columns.push(`(SELECT MD5(GROUP_CONCAT(token ORDER BY name SEPARATOR ' ')) FROM content_versions
          WHERE name = ? OR name LIKE ?) AS t${i}`);
        parameters.push(name, `${name}@%`);
      } else {
        columns.push(`(SELECT token FROM content_versions WHERE name = ?) AS t${i}`);
        parameters.push(name);
      }
    });
    const row = await this.repository.row(`SELECT ${columns.join(', ')}`, parameters);
    return names.map((_, i) => tokenColumn(row?.[`t${i}`]));
  }

  private get dialect(): 'sqlite' | 'mysql' {
    return this.dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql';
  }
}
