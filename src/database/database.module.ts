import { Global, Logger, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { resolveDataSourceOptions } from './data-source-options';
import { runMigrations } from './run-migrations';
import { withDatabaseRetry } from './database-start';
import { checkSqlitePath } from './sqlite-path-check';
import { describeDatabaseStartFailure } from './startup-failure';
import { bindSqliteNumbers } from './drivers/sqlite/number-parameters';
import { SqlLogger } from './typeorm-logger';
import { TransactionService } from './transaction.service';
import { DemoSeedRegistry } from './seed/demo-seed.registry';
import { LOG_ROOT, type RootLogger } from '../common/http/log-root';

const startLog = new Logger('Database');

/** The data source, migrated before any other provider can use it, then tied to the request context; transactions. */
@Global()
@Module({
  imports: [
    DiscoveryModule,
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG, LOG_ROOT],
      useFactory: async (config: AppConfig, log: RootLogger) => {
        if (config.database.type === 'sqlite') checkSqlitePath(config.database.path);
        const options = await withDatabaseRetry(config, startLog, () =>
          resolveDataSourceOptions(config, new SqlLogger(log.logger)),
        );
        // Retries are withDatabaseRetry's (with their reason), not TypeOrmModule's.
        return { ...options, config, toRetry: () => false };
      },
      dataSourceFactory: async (options) => {
        const { config, ...dataSourceOptions } = options as DataSourceOptions & { config: AppConfig };
        const dataSource = await withDatabaseRetry(config, startLog, async () => {
          const candidate = new DataSource(dataSourceOptions);
          bindSqliteNumbers(candidate);
          try {
            await candidate.initialize();
          } catch (error) {
            if (candidate.isInitialized) await candidate.destroy().catch(() => undefined);
            throw error;
          }
          return candidate;
        });
        // A file that opened but cannot be written fails here: one line too, never retried.
        await runMigrations(dataSource).catch((error: unknown) => {
          const failure = describeDatabaseStartFailure(error, config.database);
          throw failure && !failure.transient ? failure.error : error;
        });
        return dataSource;
      },
    }),
  ],
  providers: [TransactionService, DemoSeedRegistry],
  exports: [TransactionService, DemoSeedRegistry],
})
export class DatabaseModule {}
