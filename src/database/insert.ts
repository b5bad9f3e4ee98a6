import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

/**
 * Inserts one row and answers its generated id, without the SELECT TypeORM's `save`/`insert` run
 * afterwards to read back columns that have database defaults (callers pass every value anyway).
 */
export async function insertReturningId<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  values: QueryDeepPartialEntity<T>,
): Promise<number> {
  const result = await manager.createQueryBuilder().insert().into(entity).values(values).updateEntity(false).execute();
  const raw = result.raw as unknown;
  // better-sqlite3 reports lastInsertRowid, mysql2 a result header with insertId.
  const id =
    typeof raw === 'number' || typeof raw === 'bigint' ? raw : (raw as { insertId?: number | bigint } | null)?.insertId;
  if (id === undefined || id === null) throw new Error('The database reported no generated id');
  return Number(id);
}
