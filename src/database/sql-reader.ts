import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { requestContext } from '../common/context/request-context';

/** `%term%` with LIKE wildcards escaped by `!` (use with `LIKE … ESCAPE '!'`): "a_b" and "50%" mean those characters. */
export const likeContains = (term: string): string => `%${term.replace(/[!%_]/g, (c) => `!${c}`)}%`;

/** `?, ?, ?` for an IN list of these values. */
export const placeholders = (values: unknown[]): string => values.map(() => '?').join(', ');

/** Raw row as the driver returns it: column name (or alias) → value. */
export type SqlRow = Record<string, unknown>;

/**
 * Hand-written, parameterized SELECTs for hot read paths, where building SQL with the query builder
 * costs more than running it. Statements use `?` placeholders and plain SQL that SQLite and
 * MySQL/MariaDB both accept. Outside a transaction they run where TypeORM runs its own SELECTs (a
 * replica when replication is configured); the SQLite driver also keeps them prepared, because their
 * text does not change from one request to the next.
 */
export class SqlReader {
  private readonly hydrators = new Map<string, (row: SqlRow) => unknown>();

  constructor(private readonly dataSource: DataSource) {}

  get isSqlite(): boolean {
    return this.dataSource.options.type === 'better-sqlite3';
  }

  async rows<T = SqlRow>(sql: string, parameters: unknown[], tx?: EntityManager): Promise<T[]> {
    const manager = tx ?? requestContext.current()?.tx?.manager;
    if (manager) return manager.query<T[]>(sql, parameters);
    const runner = this.dataSource.createQueryRunner(this.dataSource.defaultReplicationModeForReads());
    try {
      return (await runner.query(sql, parameters)) as T[];
    } finally {
      await runner.release();
    }
  }

  /**
   * Turns rows whose columns are named `${prefix}${column name}` into entities exactly as TypeORM
   * hydrates them (the driver's type conversions and the columns' transformers); absent columns stay unset.
   */
  hydrator<T extends ObjectLiteral>(target: EntityTarget<T>, prefix = ''): (row: SqlRow) => T {
    const metadata = this.dataSource.getMetadata(target);
    const key = `${metadata.name}\u0000${prefix}`;
    let hydrate = this.hydrators.get(key) as ((row: SqlRow) => T) | undefined;
    if (!hydrate) {
      const driver = this.dataSource.driver;
      const columns = metadata.columns
        .filter((column) => !column.isVirtual)
        .map((column) => ({ column, name: prefix + column.databaseName }));
      hydrate = (row) => {
        const entity = metadata.create(undefined, { fromDeserializer: true }) as T;
        for (const { column, name } of columns) {
          const value = row[name];
          if (value !== undefined) column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
        }
        return entity;
      };
      this.hydrators.set(key, hydrate);
    }
    return hydrate;
  }
}
