import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WikiTitleCase1795495000000 as MysqlMigration } from '../../src/database/migrations/mysql/1795495000000-WikiTitleCase';
import { WikiTitleCase1795495000000 as SqliteMigration } from '../../src/database/migrations/sqlite/1795495000000-WikiTitleCase';
import { titleHash } from '../../src/modules/wikis/wiki-namespaces';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const exactHash = (title: string) => createHash('sha256').update(title, 'utf8').digest('hex');

describe('migration WikiTitleCase1795495000000', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let dataSource: DataSource;

  const migration = () => (t.config.database.type === 'mysql' ? new MysqlMigration() : new SqliteMigration());
  const run = async (step: 'up' | 'down') => {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await migration()[step](runner);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
  };
  const rows = async () =>
    (
      await dataSource.query<{ wikiid: number; namespace: string; title: string; title_hash: string }[]>(
        'SELECT wikiid, namespace, title, title_hash FROM wikis ORDER BY wikiid',
      )
    ).map((row) => ({ ...row, wikiid: Number(row.wikiid) }));

  beforeAll(async () => {
    t = await createTestApp();
    dataSource = t.app.get(DataSource);
    admin = await createUser(t, { privilege: 'Admin' });
  });
  afterAll(() => t.close());

  it('keeps the oldest of titles that differ only by case, renames and logs the others, rehashes the rest', async () => {
    const kept = await createCategory(t, admin.user, 'Phone X');
    const older = await createCategory(t, admin.user, 'Other Phone');
    const newer = await createCategory(t, admin.user, 'Third Phone');
    const item = await createWiki(t, admin.user, { namespace: 'ITEM', title: 'phone x' });
    const plain = await createWiki(t, admin.user, { namespace: 'INFO', title: 'Mixed Case Page' });
    // The state before the migration: exact-title hashes, and titles that differ only by case.
    await run('down');
    expect((await rows()).every((row) => row.title_hash === exactHash(row.title))).toBe(true);
    const [{ c: created }] = await dataSource.query<{ c: number }[]>(
      'SELECT created_date AS c FROM wikis WHERE wikiid = ?',
      [kept.wikiid],
    );
    await dataSource.query('UPDATE wikis SET title = ?, title_hash = ?, created_date = ? WHERE wikiid = ?', [
      'phone x',
      exactHash('phone x'),
      Number(created) - 10,
      older.wikiid,
    ]);
    await dataSource.query('UPDATE wikis SET title = ?, title_hash = ?, created_date = ? WHERE wikiid = ?', [
      'PHONE X',
      exactHash('PHONE X'),
      Number(created) + 10,
      newer.wikiid,
    ]);
    await dataSource.query(
      'INSERT INTO wiki_category_guides (guideid, category, category_hash, title) VALUES (?, ?, ?, ?), (?, ?, ?, ?)',
      [900001, 'PHONE X', exactHash('PHONE X'), 'A', 900002, 'other phone', exactHash('other phone'), 'B'],
    );
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    let logged: string[];
    try {
      await run('up');
    } finally {
      logged = warn.mock.calls.map((call) => String(call[0]));
      warn.mockRestore();
    }

    const after = new Map((await rows()).map((row) => [row.wikiid, row]));
    // The oldest keeps its title; the two others get unique titles.
    expect(after.get(older.wikiid)!.title).toBe('phone x');
    expect(after.get(kept.wikiid)!.title).toBe(`Phone X (duplicate ${kept.wikiid})`);
    expect(after.get(newer.wikiid)!.title).toBe(`PHONE X (duplicate ${newer.wikiid})`);
    // Another namespace is another identity; titles without a case twin are untouched.
    expect(after.get(item.wikiid)!.title).toBe('phone x');
    expect(after.get(plain.wikiid)!.title).toBe('Mixed Case Page');
    for (const row of after.values()) expect(row.title_hash).toBe(titleHash(row.title));
    expect(logged).toEqual([
      `CATEGORY wiki ${kept.wikiid} "Phone X" differs from wiki ${older.wikiid} only by case: renamed "Phone X (duplicate ${kept.wikiid})"`,
      `CATEGORY wiki ${newer.wikiid} "PHONE X" differs from wiki ${older.wikiid} only by case: renamed "PHONE X (duplicate ${newer.wikiid})"`,
    ]);
    const guides = await dataSource.query<{ guideid: number; category_hash: string }[]>(
      'SELECT guideid, category_hash FROM wiki_category_guides ORDER BY guideid',
    );
    expect(guides.map((g) => g.category_hash)).toEqual([titleHash('PHONE X'), titleHash('other phone')]);

    // Reads find each wiki under its title in any case.
    const read = async (title: string): Promise<{ wikiid?: number; error?: boolean }> =>
      (await t.as(admin.token, { method: 'GET', url: `/api/2.0/wikis/CATEGORY/${encodeURIComponent(title)}` })).json();
    expect((await read('PHONE_X')).wikiid).toBe(older.wikiid);
    expect((await read(`phone x (duplicate ${kept.wikiid})`)).wikiid).toBe(kept.wikiid);
    expect((await read('mixed case page')).error).toBe(true);
    expect((await t.as(admin.token, { method: 'GET', url: '/api/2.0/wikis/INFO/MIXED_CASE_PAGE' })).json().wikiid).toBe(
      plain.wikiid,
    );
  });

  it('is a no-op on a database already folded', async () => {
    const before = await rows();
    await run('up');
    expect(await rows()).toEqual(before);
  });
});
