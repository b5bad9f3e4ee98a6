import type { DataSource } from 'typeorm';

const LOCK_NAME = 'repair_guides_migrations';
const LOCK_TIMEOUT_SECONDS = 120;

/**
 * Applies pending migrations. On MySQL several instances may start at once, so the run is
 * serialized with GET_LOCK on one dedicated connection; the others wait and then find nothing to do.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  if (dataSource.options.type !== 'mysql' && dataSource.options.type !== 'mariadb') {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  }
  const runner = dataSource.createQueryRunner('master');
  await runner.connect();
  try {
    const [row] = (await runner.query('SELECT GET_LOCK(?, ?) AS got', [LOCK_NAME, LOCK_TIMEOUT_SECONDS])) as {
      got: number | null;
    }[];
    if (Number(row?.got) !== 1) throw new Error(`Could not take the migration lock within ${LOCK_TIMEOUT_SECONDS}s`);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]);
    }
  } finally {
    await runner.release();
  }
}
