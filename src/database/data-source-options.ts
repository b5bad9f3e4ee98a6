import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions, Logger } from 'typeorm';
import type { AppConfig, MysqlConnection } from '../config/app-config';
import { ENTITIES } from './entities';
import { MYSQL_MIGRATIONS } from './migrations/mysql';
import { SQLITE_MIGRATIONS } from './migrations/sqlite';

const mysqlCredentials = (c: MysqlConnection) => ({
  host: c.host,
  port: c.port,
  username: c.user,
  password: c.password,
  database: c.database,
});

/** The one TypeORM options factory: used by the app, ormconfig.ts (CLI) and the tests. */
export function buildDataSourceOptions(config: AppConfig, logger?: Logger): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'migrations',
    logger,
    maxQueryExecutionTime: 1000,
  } as const;
  const db = config.database;
  if (db.type === 'sqlite') {
    if (db.path !== ':memory:') mkdirSync(dirname(db.path), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: db.path,
      migrations: SQLITE_MIGRATIONS,
      enableWAL: db.path !== ':memory:',
      prepareDatabase: (connection: { pragma(sql: string): unknown }) => {
        connection.pragma('busy_timeout = 5000');
        connection.pragma('foreign_keys = ON');
      },
    };
  }
  const mysqlOptions = {
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: false,
    extra: { connectionLimit: 20 },
  };
  return {
    ...common,
    ...mysqlOptions,
    type: 'mysql',
    migrations: MYSQL_MIGRATIONS,
    ...(db.replicas.length
      ? { replication: { master: mysqlCredentials(db.primary), slaves: db.replicas.map(mysqlCredentials) } }
      : mysqlCredentials(db.primary)),
  };
}
