import type { EntityManager, EntityTarget, ObjectLiteral, QueryRunner } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata';

type Values<T> = { [K in keyof T]?: T[K] | null };

/** Per entity, each property's column and its escaped name (looking them up cost more than the statement). */
const columnsOf = new WeakMap<EntityMetadata, Map<string, { column: ColumnMetadata; name: string }>>();

/**
 * `UPDATE table SET … WHERE a = ? AND b = ?` of hand-written SQL, answering the number of rows it changed.
 * TypeORM's update builder spent more CPU building one statement (property-name rewriting, escaping,
 * per-call metadata walks) than the database spent running it. Values still go through the driver's own
 * conversion (transformers, JSON, booleans), as in insertRows. `where` compares with `=` only; a null in it
 * is an error (`= NULL` matches nothing), and neither the assignments nor `where` may be empty. `rawSet`
 * adds assignments written in SQL (e.g. `write_count = write_count + 1`).
 */
export async function updateRows<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  changes: Values<T>,
  where: Values<T>,
  rawSet: readonly string[] = [],
): Promise<number> {
  const metadata = manager.connection.getMetadata(entity);
  const driver = manager.connection.driver;
  let known = columnsOf.get(metadata);
  if (!known) columnsOf.set(metadata, (known = new Map<string, { column: ColumnMetadata; name: string }>()));
  const columnOf = (property: string): { column: ColumnMetadata; name: string } => {
    let found = known.get(property);
    if (!found) {
      const column = metadata.findColumnWithPropertyPath(property);
      if (!column) throw new Error(`${metadata.name} has no column ${property}`);
      found = { column, name: driver.escape(column.databaseName) };
      known.set(property, found);
    }
    return found;
  };
  const set = Object.entries(changes).filter(([, value]) => value !== undefined);
  const conditions = Object.entries(where).filter(([, value]) => value !== undefined);
  if ((!set.length && !rawSet.length) || !conditions.length) throw new Error('updateRows needs changes and conditions');
  const parameters: unknown[] = [];
  const assign = set.map(([property, value]) => {
    const { column, name } = columnOf(property);
    parameters.push(driver.preparePersistentValue(value ?? null, column));
    return `${name} = ?`;
  });
  const match = conditions.map(([property, value]) => {
    if (value === null) throw new Error(`updateRows: ${property} = NULL matches nothing`);
    const { column, name } = columnOf(property);
    parameters.push(driver.preparePersistentValue(value, column));
    return `${name} = ?`;
  });
  const sql = `UPDATE ${driver.escape(metadata.tableName)} SET ${[...assign, ...rawSet].join(', ')} WHERE ${match.join(' AND ')}`;
  return affectedBy(manager, sql, parameters);
}

/** Runs a hand-written UPDATE or DELETE and answers how many rows it changed. */
export async function affectedBy(manager: EntityManager, sql: string, parameters: unknown[]): Promise<number> {
  // The structured result carries `affected` on both drivers (a plain query answers SQLite's last row id).
  const owned = manager.queryRunner === undefined;
  const runner: QueryRunner = manager.queryRunner ?? manager.connection.createQueryRunner('master');
  try {
    const result = await runner.query(sql, parameters, true);
    return Number((result as { affected?: number }).affected ?? 0);
  } finally {
    if (owned) await runner.release();
  }
}
