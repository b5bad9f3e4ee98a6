import {
  answerSources,
  answerTokensChangedBy,
  registerAnswerSources,
  replaceAnswerTokens,
  writtenTable,
} from './answer-sources';
import { ANSWER_TOKEN_SLOTS, answerTokenSlotOf } from '../platform/versions/content-versions';

describe('answer sources', () => {
  it('names the table of every write shape the service and TypeORM send', () => {
    expect(writtenTable('INSERT INTO "guides"("guideid") VALUES (?)')).toBe('guides');
    expect(writtenTable('INSERT INTO `comments` (`commentid`) VALUES (?)')).toBe('comments');
    expect(writtenTable('  insert or ignore into team_members (teamid) values (?)')).toBe('team_members');
    expect(writtenTable('INSERT IGNORE INTO team_members (teamid) VALUES (?)')).toBe('team_members');
    expect(writtenTable('REPLACE INTO users (userid) VALUES (?)')).toBe('users');
    expect(writtenTable('UPDATE "guides" SET "deleted" = ? WHERE "guideid" = ?')).toBe('guides');
    expect(writtenTable('UPDATE `guide_revisions` SET `document` = ?')).toBe('guide_revisions');
    expect(writtenTable('UPDATE OR REPLACE users SET username = ?')).toBe('users');
    expect(writtenTable('update\nUsers set reputation = reputation + ?')).toBe('users');
    expect(writtenTable('DELETE FROM "comments" WHERE "commentid" = ?')).toBe('comments');
    expect(writtenTable('DELETE FROM main.team_members WHERE teamid = ?')).toBe('team_members');
    expect(writtenTable('DELETE FROM `rgcs`.`teams` WHERE teamid = ?')).toBe('teams');
  });

  it('counts a write behind WITH as a write of any table, and nothing else as a write', () => {
    expect(writtenTable('WITH x AS (SELECT 1) UPDATE users SET reputation = 0')).toBe('*');
    expect(writtenTable('WITH x AS (SELECT 1) SELECT * FROM x')).toBeUndefined();
    for (const sql of ['SELECT * FROM guides', 'BEGIN IMMEDIATE', 'COMMIT', 'SAVEPOINT member', 'RELEASE member'])
      expect(writtenTable(sql)).toBeUndefined();
    expect(writtenTable('PRAGMA foreign_keys = ON')).toBeUndefined();
    expect(writtenTable('CREATE TABLE guides (guideid integer)')).toBeUndefined();
  });

  it('reports the tokens of registered tables only', () => {
    registerAnswerSources(['Guides', 'comments']);
    registerAnswerSources(['guides', 'quizzes'], 'answers-quizzes');
    const tokensOf = (sql: string) => [...(answerTokensChangedBy(sql) ?? [])].sort();
    expect(tokensOf('UPDATE guides SET title = ?')).toEqual(['answers', 'answers-quizzes']);
    expect(tokensOf('INSERT INTO comments (text_raw) VALUES (?)')).toEqual(['answers']);
    expect(tokensOf('DELETE FROM quizzes WHERE quizid = ?')).toEqual(['answers-quizzes']);
    expect(tokensOf('WITH a AS (SELECT 1) DELETE FROM jobs')).toEqual(['answers', 'answers-quizzes']);
    expect(answerTokensChangedBy('UPDATE jobs SET status = ?')).toBeUndefined();
    expect(answerTokensChangedBy("INSERT INTO content_versions (name, token) VALUES ('answers', ?)")).toBeUndefined();
    expect(answerTokensChangedBy('INSERT INTO guides_fts (rowid) VALUES (?)')).toBeUndefined();
    expect([...answerSources('answers-quizzes')].sort()).toEqual(['guides', 'quizzes']);
    expect([...answerSources()].sort()).toEqual(['comments', 'guides']);
  });

  it('replaces several tokens with one upsert, in name order', () => {
    const [sql, parameters] = replaceAnswerTokens('mysql', ['answers-quizzes', 'answers', 'answers-quizzes']);
    expect(sql).toMatch(/VALUES \(\?, \?\), \(\?, \?\) ON DUPLICATE KEY UPDATE/);
    expect(parameters.filter((_, i) => i % 2 === 0)).toEqual(['answers', 'answers-quizzes']);
    expect(new Set(parameters.filter((_, i) => i % 2 === 1)).size).toBe(2);
    expect(replaceAnswerTokens('sqlite', ['answers'])[0]).toMatch(/VALUES \(\?, \?\) ON CONFLICT \(name\)/);
  });

  it("on MySQL replaces the rows of the connection's slot, in name order", () => {
    const [, parameters] = replaceAnswerTokens('mysql', ['answers-quizzes', 'answers'], 7);
    expect(parameters.filter((_, i) => i % 2 === 0)).toEqual(['answers-quizzes@7', 'answers@7']);
    // Connections keep their slot; the connections of one process take different slots until all are taken.
    const connections = Array.from({ length: ANSWER_TOKEN_SLOTS }, () => ({}));
    const taken = connections.map((connection) => answerTokenSlotOf(connection));
    expect(new Set(taken).size).toBe(ANSWER_TOKEN_SLOTS);
    expect(connections.map((connection) => answerTokenSlotOf(connection))).toEqual(taken);
    expect(taken.every((slot) => Number.isInteger(slot) && slot >= 0 && slot < ANSWER_TOKEN_SLOTS)).toBe(true);
  });

  it("replaces documents' tokens in the same upsert, one row each whatever the slot, in name order", () => {
    const [, parameters] = replaceAnswerTokens('mysql', ['answers-guide', 'answers'], 3, [
      'answers-guide/8',
      'answers-guide/10',
      'answers-guide/8',
    ]);
    expect(parameters.filter((_, i) => i % 2 === 0)).toEqual([
      'answers-guide/10',
      'answers-guide/8',
      'answers-guide@3',
      'answers@3',
    ]);
  });
});
