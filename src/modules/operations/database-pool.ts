import type { DataSource } from 'typeorm';

export interface PoolFacts {
  /** Connections the pool may open. */
  size: number;
  open: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}

interface MysqlPool {
  config?: { connectionLimit?: number };
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

/**
 * The primary's connection pool as mysql2 keeps it (its counters are not public API, so each is read
 * defensively), or SQLite's single connection.
 */
export function databasePool(dataSource: DataSource): PoolFacts {
  if (dataSource.options.type !== 'mysql') return { size: 1, open: 1, idle: 0, waiting: 0 };
  const driver = dataSource.driver as unknown as {
    pool?: MysqlPool;
    poolCluster?: { _nodes?: Record<string, { pool: MysqlPool }> };
  };
  const pools = driver.pool ? [driver.pool] : Object.values(driver.poolCluster?._nodes ?? {}).map((node) => node.pool);
  const sum = (read: (pool: MysqlPool) => number | undefined) =>
    pools.reduce((total, pool) => total + (read(pool) ?? 0), 0);
  return {
    size: sum((pool) => pool.config?.connectionLimit),
    open: sum((pool) => pool._allConnections?.length),
    idle: sum((pool) => pool._freeConnections?.length),
    waiting: sum((pool) => pool._connectionQueue?.length),
  };
}
