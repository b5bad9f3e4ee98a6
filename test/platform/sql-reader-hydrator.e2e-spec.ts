import { DataSource, In, type EntityMetadata } from 'typeorm';
import { SqlReader } from '../../src/database/sql-reader';
import { EventBus } from '../../src/platform/events/event-bus';
import { JobRunner } from '../../src/platform/jobs/job-runner';
import { addStep, createGuide } from '../factories/guide.factory';
import { createQuiz, releaseGuide } from '../factories/quiz.factory';
import { createUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * SqlReader.hydrator must give exactly what TypeORM's own hydration gives (same class, same values after the
 * driver's conversions and the columns' transformers), for every entity with rows after some activity.
 */
describe('SqlReader.hydrator', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await createUser(t, { privilege: 'Admin' });
    const author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, admin.user, 'Hydrated');
    await createWiki(t, author.user, { contents: 'Some **text**' });
    await t.as(admin.token, { method: 'POST', url: '/api/2.0/teams', payload: { name: 'Hydrators' } });
    const guide = await createGuide(t, author.user, { category: 'Hydrated', title: 'Hydrated guide' });
    await addStep(t, author.user, guide.guideid);
    await releaseGuide(t, admin.user, guide.guideid);
    await createQuiz(t, author.user, { guideid: guide.guideid });
    // Nothing may change rows between the two reads of a table: deliver the events and run the jobs first
    // (CI of cea46c5: the dispatcher marked an event dispatched between them).
    await t.app.get(EventBus).drain();
    await t.app.get(JobRunner).drain();
    await t.app.get(EventBus).drain();
  });
  afterAll(() => t.close());

  it('equals TypeORM hydration, class and values, for every entity that has rows', async () => {
    const dataSource = t.app.get(DataSource);
    const reader = new SqlReader(dataSource);
    const compared: string[] = [];
    const kinds = new Set<string>();
    for (const metadata of dataSource.entityMetadatas) {
      if (metadata.tableType !== 'regular' || metadata.primaryColumns.length !== 1) continue;
      const key = metadata.primaryColumns[0];
      const columns = metadata.columns.filter((c) => !c.isVirtual);
      const q = (name: string) => dataSource.driver.escape(name);
      const rows = await dataSource.query<Record<string, unknown>[]>(
        `SELECT ${columns.map((c) => `${q(c.databaseName)} AS ${q(`x_${c.databaseName}`)}`).join(', ')} ` +
          `FROM ${q(metadata.tableName)} ORDER BY ${q(key.databaseName)} LIMIT 20`,
      );
      if (!rows.length) continue;
      const hydrate = reader.hydrator(metadata.target, 'x_');
      const ours = rows.map((row) => hydrate(row));
      const theirs = await dataSource.getRepository(metadata.target).find({
        where: { [key.propertyName]: In(ours.map((e) => (e as Record<string, unknown>)[key.propertyName])) },
        order: { [key.propertyName]: 'ASC' },
      });
      expect({ entity: metadata.name, rows: ours }).toStrictEqual({ entity: metadata.name, rows: theirs });
      compared.push(metadata.name);
      for (const c of columns) kinds.add(kindOf(c));
    }
    expect(compared).toEqual(
      expect.arrayContaining(['UserEntity', 'WikiRevisionEntity', 'DomainEventEntity', 'GuideEntity', 'ReleaseEntity']),
    );
    expect(compared.length).toBeGreaterThanOrEqual(15);
    expect([...kinds]).toEqual(expect.arrayContaining(['transformer', 'boolean', 'json', 'plain']));
  });
});

function kindOf(column: EntityMetadata['columns'][number]): string {
  if (column.transformer) return 'transformer';
  if (column.type === 'boolean' || column.type === Boolean) return 'boolean';
  if (column.type === 'json' || column.type === 'simple-json') return 'json';
  return 'plain';
}
