import { DataSource } from 'typeorm';
import { resolveDataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/run-migrations';
import { resetDatabase } from './utils/reset-database';
import { testConfig, usingMysql } from './utils/test-config';

async function dropEverything(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'better-sqlite3') {
    const runner = dataSource.createQueryRunner();
    await runner.query('SET FOREIGN_KEY_CHECKS = 0');
    for (const row of (await runner.query('SHOW TABLES')) as Record<string, string>[]) {
      await runner.query(`DROP TABLE \`${Object.values(row)[0]}\``);
    }
    await runner.query('SET FOREIGN_KEY_CHECKS = 1');
    await runner.release();
  }
}

/** Applies every migration to an empty database and checks that nothing differs from the entities. */
describe(`schema (${usingMysql() ? 'MySQL' : 'SQLite'})`, () => {
  it('migrations build exactly the schema the entities describe', async () => {
    const dataSource = await new DataSource(await resolveDataSourceOptions(testConfig())).initialize();
    try {
      await dropEverything(dataSource);
      const applied = await runMigrations(dataSource);
      expect(applied.length).toBe(dataSource.migrations.length);
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
      expect(await runMigrations(dataSource)).toEqual([]);
    } finally {
      await resetDatabase(dataSource).catch(() => undefined);
      await dataSource.destroy();
    }
  });

  // MySQL only (skipped unless TEST_DB=mysql): the lock is MySQL's GET_LOCK; SQLite serializes writers itself.
  const itOnMysql = usingMysql() ? it : it.skip;
  itOnMysql('several instances can start at once: migrations run once, under GET_LOCK', async () => {
    const options = await resolveDataSourceOptions(testConfig());
    const sources = await Promise.all([1, 2, 3].map(() => new DataSource(options).initialize()));
    try {
      await dropEverything(sources[0]);
      const results = await Promise.all(sources.map((s) => runMigrations(s)));
      const appliedCounts = results.map((r) => r.length).sort();
      expect(appliedCounts).toEqual([0, 0, sources[0].migrations.length]);
      const pending = await sources[0].driver.createSchemaBuilder().log();
      expect(pending.upQueries).toEqual([]);
    } finally {
      await Promise.all(sources.map((s) => s.destroy()));
    }
  });
});
