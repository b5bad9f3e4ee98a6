import type { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { Driver } from 'typeorm/driver/Driver';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
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

  /** In the open transaction if there is one (docs/transactions.md). */
  async rows<T = SqlRow>(sql: string, parameters: unknown[]): Promise<T[]> {
    const manager = requestContext.current()?.tx?.manager;
    if (manager) return manager.query<T[]>(sql, parameters);
    const runner = this.dataSource.createQueryRunner(this.dataSource.defaultReplicationModeForReads());
    try {
      return (await runner.query(sql, parameters)) as T[];
    } finally {
      await runner.release();
    }
  }

  /** `alias.column AS alias_column` for an entity's columns (or some of its properties): the select list of `hydrator(target, `${alias}_`)`. */
  columns(target: EntityTarget<ObjectLiteral>, alias: string, only?: string[]): string {
    return this.dataSource
      .getMetadata(target)
      .columns.filter((c) => !only || only.includes(c.propertyName))
      .map((c) => `${alias}.${c.databaseName} AS ${alias}_${c.databaseName}`)
      .join(', ');
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
      hydrate = compileHydrator<T>(metadata, this.dataSource.driver, prefix);
      this.hydrators.set(key, hydrate);
    }
    return hydrate;
  }
}

/**
 * Column types that both drivers hand back unchanged (their prepareHydratedValue converts booleans, dates,
 * JSON, arrays, enums and `Number`-typed columns, and applies transformers; none of these types).
 */
const PASS_THROUGH = new Set([
  'int',
  'integer',
  'bigint',
  'smallint',
  'tinyint',
  'varchar',
  'char',
  'text',
  'tinytext',
  'mediumtext',
  'longtext',
]);

/** A plain column without a transformer whose value the driver would return as it is. */
const passesThrough = (column: ColumnMetadata): boolean =>
  !column.transformer && typeof column.type === 'string' && PASS_THROUGH.has(column.type);

/**
 * The conversion both drivers' prepareHydratedValue make of a column's value, for the types they leave
 * alone but for a transformer (bigint with one transformer: dates, counters) or turn into a boolean
 * (boolean without one); undefined for every other column (the driver converts it).
 */
function directConversion(column: ColumnMetadata): ((value: unknown) => unknown) | undefined {
  const { type, transformer } = column;
  if (type === 'bigint' && transformer && !Array.isArray(transformer)) return (value): unknown => transformer.from(value) as unknown;
  if (type === 'boolean' && !transformer) return (value) => (value === null ? null : Boolean(value));
  return undefined;
}

/**
 * The row → entity function of SqlReader.hydrator. Same result as TypeORM's hydration (the driver's
 * conversion and transformers per column); plain columns of plain entities are assigned directly, since
 * going through ColumnMetadata and the driver for each value was most of a large page's hydration time.
 */
function compileHydrator<T>(metadata: EntityMetadata, driver: Driver, prefix: string): (row: SqlRow) => T {
  const columns = metadata.columns.filter((column) => !column.isVirtual);
  const plainEntity =
    typeof metadata.target === 'function' &&
    !metadata.isAlwaysUsingConstructor &&
    metadata.lazyRelations.length === 0 &&
    !metadata.dataSource.options.typename;
  const create = (): T =>
    plainEntity
      ? (Object.create((metadata.target as { prototype: object }).prototype) as T)
      : (metadata.create(undefined, { fromDeserializer: true }) as T);
  const steps = columns.map((column) => {
    const name = prefix + column.databaseName;
    // An embedded column's value goes into its embedded object; every other (non-virtual) column is a property.
    if (column.embeddedMetadata) {
      return (entity: T, row: SqlRow) => {
        const value = row[name];
        if (value !== undefined)
          column.setEntityValue(entity as ObjectLiteral, driver.prepareHydratedValue(value, column));
      };
    }
    const property = column.propertyName;
    if (passesThrough(column)) {
      return (entity: T, row: SqlRow) => {
        const value = row[name];
        if (value !== undefined) (entity as Record<string, unknown>)[property] = value;
      };
    }
    const convert = directConversion(column);
    if (convert) {
      return (entity: T, row: SqlRow) => {
        const value = row[name];
        if (value !== undefined) (entity as Record<string, unknown>)[property] = convert(value);
      };
    }
    return (entity: T, row: SqlRow) => {
      const value = row[name];
      if (value !== undefined)
        (entity as Record<string, unknown>)[property] = driver.prepareHydratedValue(value, column);
    };
  });
  return (row) => {
    const entity = create();
    for (const step of steps) step(entity, row);
    return entity;
  };
}
