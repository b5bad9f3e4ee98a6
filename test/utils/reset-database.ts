import type { DataSource } from 'typeorm';

/** Empties every table but the migrations log, so each test file starts from a blank database. */
export async function resetDatabase(dataSource: DataSource): Promise<void> {
  const tables = dataSource.entityMetadatas.map((m) => m.tableName);
  if (dataSource.options.type !== 'better-sqlite3') {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.query('SET FOREIGN_KEY_CHECKS = 0');
      for (const table of tables) await runner.query(`TRUNCATE TABLE \`${table}\``);
      await runner.query('SET FOREIGN_KEY_CHECKS = 1');
    } finally {
      await runner.release();
    }
    return;
  }
  await dataSource.query('PRAGMA foreign_keys = OFF');
  for (const table of tables) await dataSource.query(`DELETE FROM "${table}"`);
  await dataSource.query('PRAGMA foreign_keys = ON');
}
