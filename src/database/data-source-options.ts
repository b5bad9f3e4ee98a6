import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createConnection } from 'mysql2/promise';
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

export type MysqlFlavour = 'mysql' | 'mariadb';

/**
 * MySQL and MariaDB speak the same protocol, but TypeORM reads their schemas differently (MariaDB
 * reports a nullable column's default as the string NULL), so the driver type must match the server.
 */
export async function detectMysqlFlavour(connection: MysqlConnection): Promise<MysqlFlavour> {
  const client = await createConnection({ ...connection, database: undefined });
  try {
    const [rows] = await client.query('SELECT VERSION() AS version');
    return /mariadb/i.test(String((rows as { version: string }[])[0]?.version)) ? 'mariadb' : 'mysql';
  } finally {
    await client.end();
  }
}

/** The one TypeORM options factory: used by the app, ormconfig.ts (CLI) and the tests. */
export async function resolveDataSourceOptions(config: AppConfig, logger?: Logger): Promise<DataSourceOptions> {
  const flavour = config.database.type === 'mysql' ? await detectMysqlFlavour(config.database.primary) : undefined;
  return buildDataSourceOptions(config, logger, flavour);
}

export function buildDataSourceOptions(
  config: AppConfig,
  logger?: Logger,
  flavour: MysqlFlavour = 'mysql',
): DataSourceOptions {
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
      // Prepared statements are reused per query shape (see drivers/sqlite/number-parameters.ts); shapes vary with IN-list lengths.
      statementCacheSize: 1000,
      prepareDatabase: (connection: { pragma(sql: string): unknown }) => {
        connection.pragma('busy_timeout = 5000');
        connection.pragma('foreign_keys = ON');
        // Set, not left to SQLite: a file this process creates would run FULL, and NORMAL once reopened in WAL mode.
        connection.pragma(`synchronous = ${db.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      },
    };
  }
  const mysqlOptions = {
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: false,
    connectTimeout: config.databaseLimits.connectTimeoutMs,
    // For the query runner's own batches only (drivers/mysql/query.ts): it refuses several statements from callers.
    multipleStatements: true,
    extra: { connectionLimit: config.databaseLimits.poolSize },
  };
  return {
    ...common,
    ...mysqlOptions,
    type: flavour,
    migrations: MYSQL_MIGRATIONS,
    ...(db.replicas.length
      ? {
          replication: {
            master: mysqlCredentials(db.primary),
            slaves: db.replicas.map(mysqlCredentials),
            // mysql2's pool cluster removes a node for good after 5 failed connects (and ending its pool
            // throws an uncaught error): a restart of the primary or a replica would leave the service
            // without it until restarted. Taken offline for a second instead, it is tried again.
            restoreNodeTimeout: 1000,
          },
        }
      : mysqlCredentials(db.primary)),
  };
}
