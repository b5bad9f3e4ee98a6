import type { DataSource } from 'typeorm';

type Parameters = Record<string, unknown>;
type Driver = {
  createParameter(key: string, index: number): string;
  escapeQueryWithParameters(sql: string, parameters: Parameters, nativeParameters: Parameters): [string, unknown[]];
};

/**
 * TypeORM's SQLite driver writes number parameters into the SQL text, so `WHERE guideid = 17` and
 * `… = 18` are different statements: better-sqlite3 prepares each anew and TypeORM's small FIFO
 * statement cache never hits (prepare was ~8% of the service's CPU under write load). This binds every
 * value (numbers included) as a parameter, so a query shape is prepared once; SQLite compares and
 * stores bound numbers by column affinity, as it did the literals.
 */
export function bindSqliteNumbers(dataSource: DataSource): void {
  if (dataSource.options.type !== 'better-sqlite3') return;
  const driver = dataSource.driver as unknown as Driver;
  driver.escapeQueryWithParameters = (sql, parameters) => {
    const values: unknown[] = [];
    if (!parameters || !Object.keys(parameters).length) return [sql, values];
    const bind = (key: string, value: unknown): string => {
      values.push(
        typeof value === 'boolean'
          ? +value
          : value instanceof Date
            ? value.toISOString().replace('T', ' ').slice(0, 23)
            : value,
      );
      return driver.createParameter(key, values.length - 1);
    };
    const escaped = sql.replace(
      /:(\.\.\.)?([A-Za-z0-9_.]+)/g,
      (full: string, spread: string | undefined, key: string) => {
        if (!Object.prototype.hasOwnProperty.call(parameters, key)) return full;
        const value = parameters[key];
        if (spread) return (value as unknown[]).map((item) => bind(key, item)).join(', ');
        if (typeof value === 'function') return (value as () => string)();
        return bind(key, value);
      },
    );
    return [escaped, values];
  };
}
