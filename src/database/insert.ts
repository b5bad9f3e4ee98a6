import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { deferWrite } from './drivers/deferred-writes';

/** Rows per statement: well under SQLite's 32,766 and MySQL's 65,535 placeholders for our widest tables. */
const ROWS_PER_STATEMENT = 100;

/** The generated id a driver reports for an INSERT: better-sqlite3 the last row's, mysql2 the first row's. */
function reportedId(raw: unknown): { id: number; isLast: boolean } {
  if (typeof raw === 'number' || typeof raw === 'bigint') return { id: Number(raw), isLast: true };
  const id = (raw as { insertId?: number | bigint } | null)?.insertId;
  if (id === undefined || id === null) throw new Error('The database reported no generated id');
  return { id: Number(id), isLast: false };
}

/**
 * Inserts rows of one entity with multi-row INSERTs of hand-written SQL and answers their generated ids in
 * order (one statement's ids are consecutive: SQLite writes one transaction at a time, InnoDB allocates a
 * simple multi-row INSERT's values together). TypeORM's insert builder spent most of a batch's CPU building
 * and escaping parameters; values still go through the driver's own conversion (transformers, JSON, booleans).
 * The columns are the properties the first row defines; the database's defaults fill the others. Unlike
 * `save`/`insert`, nothing is read back. `deferred`: the rows are a deferred write (drivers/deferred-writes.ts) and no ids
 * are answered.
 */
export async function insertRows<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  rows: ReadonlyArray<Partial<T> | QueryDeepPartialEntity<T>>,
  options: { deferred?: boolean } = {},
): Promise<number[]> {
  if (!rows.length) return [];
  const plan = insertPlan(manager, entity, rows[0]);
  const { columns } = plan;
  const driver = manager.connection.driver;
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    const parameters: unknown[] = [];
    for (const row of chunk)
      for (const column of columns)
        parameters.push(driver.preparePersistentValue(column.getEntityValue(row) ?? null, column) as unknown);
    if (options.deferred) {
      await deferWrite(manager, plan.sql(chunk.length), parameters);
      continue;
    }
    const raw: unknown = await manager.query(plan.sql(chunk.length), parameters);
    if (!plan.generated) continue;
    const { id, isLast } = reportedId(raw);
    const first = isLast ? id - chunk.length + 1 : id;
    chunk.forEach((_, k) => ids.push(first + k));
  }
  return ids;
}

interface InsertPlan {
  columns: ColumnMetadata[];
  generated: boolean;
  /** The statement for `count` rows (the same string each time: prepared statements are found by it). */
  sql(count: number): string;
}

/** Plans per entity and per set of properties the first row defines: building one cost more than running it. */
const plans = new WeakMap<EntityMetadata, Map<string, InsertPlan>>();

function insertPlan(manager: EntityManager, entity: EntityTarget<ObjectLiteral>, first: ObjectLiteral): InsertPlan {
  const metadata = manager.connection.getMetadata(entity);
  // Entities with embedded columns: which columns a row defines is not its own keys; no plan is kept.
  let key: string | undefined;
  if (!metadata.embeddeds.length) {
    key = '';
    for (const property in first) if (first[property] !== undefined) key += `${property},`;
  }
  let byKey = plans.get(metadata);
  const known = key === undefined ? undefined : byKey?.get(key);
  if (known) return known;
  const driver = manager.connection.driver;
  const columns = metadata.columns.filter((column) => column.getEntityValue(first) !== undefined);
  const table = driver.escape(metadata.tableName);
  const names = columns.map((column) => driver.escape(column.databaseName)).join(', ');
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const statements = new Map<number, string>();
  const plan: InsertPlan = {
    columns,
    generated: metadata.columns.some((column) => column.isGenerated),
    sql: (count) => {
      let sql = statements.get(count);
      if (sql === undefined) {
        sql = `INSERT INTO ${table} (${names}) VALUES ${Array(count).fill(tuple).join(', ')}`;
        statements.set(count, sql);
      }
      return sql;
    },
  };
  if (key !== undefined) {
    if (!byKey) plans.set(metadata, (byKey = new Map<string, InsertPlan>()));
    byKey.set(key, plan);
  }
  return plan;
}

/** Inserts one row and answers its generated id (see insertRows). */
export async function insertReturningId<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  values: QueryDeepPartialEntity<T>,
): Promise<number> {
  const [id] = await insertRows(manager, entity, [values]);
  if (id === undefined) throw new Error('The table has no generated id');
  return id;
}
