import { GuideEntity } from '../src/modules/guides/entities/guide.entity';
import { createTestApp, type TestApp } from './utils/test-app';

describe('query parameters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const shape = (guideid: number) =>
    t.dataSource
      .createQueryBuilder(GuideEntity, 'g')
      .where('g.guideid = :guideid AND g.public = :public AND g.type IN (:...types)', {
        guideid,
        public: true,
        types: ['repair', 'teardown'],
      })
      .getQueryAndParameters();

  it('binds numbers on SQLite so one query shape is one prepared statement (MySQL: unchanged)', async () => {
    const [sql17, params17] = shape(17);
    const [sql18, params18] = shape(18);
    if (t.config.database.type === 'sqlite') {
      expect(sql17).toBe(sql18);
      expect(sql17).not.toContain('17');
      expect(params17).toEqual([17, 1, 'repair', 'teardown']);
      expect(params18).toEqual([18, 1, 'repair', 'teardown']);
    } else {
      expect(params17).toEqual([17, true, 'repair', 'teardown']);
    }
    await t.dataSource.query(
      'INSERT INTO guides (authorid, langid, category, title, type, public, deleted, flags, revisionid, head_revisionid, created_date, modified_date, published_date) VALUES (1, ?, ?, ?, ?, 1, 0, ?, 0, 0, 0, 0, 0)',
      ['en', 'C', 'T', 'repair', ''],
    );
    const [{ id }] = await t.dataSource.query<{ id: number }[]>('SELECT MAX(guideid) AS id FROM guides');
    const found = await t.dataSource
      .createQueryBuilder(GuideEntity, 'g')
      .where('g.guideid = :guideid AND g.public = :public AND g.type IN (:...types)', {
        guideid: Number(id),
        public: true,
        types: ['repair'],
      })
      .getMany();
    expect(found.map((g) => g.guideid)).toEqual([Number(id)]);
    const none = await t.dataSource
      .createQueryBuilder(GuideEntity, 'g')
      .where('g.guideid = :guideid', { guideid: Number(id) + 0.5 })
      .getMany();
    expect(none).toEqual([]);
  });
});
