import type { DataSource, QueryRunner, ReplicationMode } from 'typeorm';
import { requestContext } from '../../common/context/request-context';
import { installMysqlQuery } from './mysql/query';

/**
 * Wraps `dataSource.createQueryRunner` (TypeORM calls it for every manager query, query builder and
 * transaction that has no runner of its own):
 * - with read replicas, work that may write (see RequestContext.primary) reads from the primary;
 * - on MySQL every runner gets the service's `query` (mysql/query.ts). SQLite's one runner is patched once
 *   (sqlite/runner-patches.ts).
 */
export function wrapCreateQueryRunner(dataSource: DataSource): void {
  const sqlite = dataSource.options.type === 'better-sqlite3';
  const createQueryRunner = dataSource.createQueryRunner.bind(dataSource);
  dataSource.createQueryRunner = (mode: ReplicationMode = 'master'): QueryRunner => {
    const runner = createQueryRunner(mode === 'slave' && requestContext.current()?.primary !== false ? 'master' : mode);
    return sqlite ? runner : installMysqlQuery(runner);
  };
}
