import type { QueryRunner } from 'typeorm';

/**
 * Triggers that refuse UPDATE and DELETE on a table (audit log, signatures): the database itself keeps
 * them append-only, whatever code or operator runs against it. TRUNCATE (an operator resetting a test
 * database) is not a row change and is not blocked.
 */
export async function addAppendOnlyTriggers(
  runner: QueryRunner,
  dialect: 'mysql' | 'sqlite',
  table: string,
): Promise<void> {
  for (const operation of ['UPDATE', 'DELETE']) {
    const name = `${table}_no_${operation.toLowerCase()}`;
    const message = `${table} is append-only: ${operation} is not allowed`;
    await runner.query(
      dialect === 'mysql'
        ? `CREATE TRIGGER \`${name}\` BEFORE ${operation} ON \`${table}\` FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = '${message}'`
        : `CREATE TRIGGER "${name}" BEFORE ${operation} ON "${table}" BEGIN SELECT RAISE(ABORT, '${message}'); END`,
    );
  }
}

export async function dropAppendOnlyTriggers(
  runner: QueryRunner,
  dialect: 'mysql' | 'sqlite',
  table: string,
): Promise<void> {
  for (const operation of ['update', 'delete']) {
    const name = `${table}_no_${operation}`;
    await runner.query(dialect === 'mysql' ? `DROP TRIGGER IF EXISTS \`${name}\`` : `DROP TRIGGER IF EXISTS "${name}"`);
  }
}
