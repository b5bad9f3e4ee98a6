import { DataSource } from 'typeorm';
import type { AppConfig } from '../../src/config/app-config';
import { resolveDataSourceOptions } from '../../src/database/data-source-options';

/** Empties every table but the migrations log (whatever tables exist), so a test file starts blank. */
export async function resetDatabase(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'better-sqlite3') {
    const runner = dataSource.createQueryRunner();
    try {
      const tables = ((await runner.query('SHOW TABLES')) as Record<string, string>[]).map(
        (row) => Object.values(row)[0],
      );
      await runner.query('SET FOREIGN_KEY_CHECKS = 0');
      for (const table of tables.filter((name) => name !== 'migrations'))
        await runner.query(`TRUNCATE TABLE \`${table}\``);
      await runner.query('SET FOREIGN_KEY_CHECKS = 1');
    } finally {
      await runner.release();
    }
    return;
  }
  const all = await dataSource.query<{ name: string; sql: string | null }[]>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
  );
  // A virtual table (FTS5) is emptied through itself; its shadow tables (`<name>_data`, …) are left alone.
  const virtual = all.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql ?? '')).map((r) => r.name);
  const tables = all.map((r) => r.name).filter((name) => !virtual.some((v) => name.startsWith(`${v}_`)));
  // Append-only tables refuse DELETE through triggers: lift them for the reset, then put them back.
  const triggers = await dataSource.query<{ name: string; sql: string }[]>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'",
  );
  for (const trigger of triggers) await dataSource.query(`DROP TRIGGER "${trigger.name}"`);
  await dataSource.query('PRAGMA foreign_keys = OFF');
  for (const table of tables.filter((name) => name !== 'migrations')) await dataSource.query(`DELETE FROM "${table}"`);
  await dataSource.query('PRAGMA foreign_keys = ON');
  for (const trigger of triggers) await dataSource.query(trigger.sql);
}

/** Before an app boots on the run's shared MySQL database: empty it, so startup tasks run on a blank site. */
export async function resetBeforeStart(config: AppConfig): Promise<void> {
  if (config.database.type !== 'mysql') return;
  const dataSource = await new DataSource({
    ...(await resolveDataSourceOptions(config)),
    entities: [],
    migrations: [],
  }).initialize();
  try {
    await resetDatabase(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
