import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { resolveDataSourceOptions } from './data-source-options';
import { runMigrations } from './run-migrations';
import { bindSqliteNumbers } from './drivers/sqlite/number-parameters';
import { SqlLogger } from './typeorm-logger';
import { TransactionService } from './transaction.service';
import { DemoSeedRegistry } from './seed/demo-seed.registry';
import { LOG_ROOT, type RootLogger } from '../common/http/log-root';

/** The data source, migrated before any other provider can use it, then tied to the request context; transactions. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG, LOG_ROOT],
      useFactory: (config: AppConfig, log: RootLogger) => resolveDataSourceOptions(config, new SqlLogger(log.logger)),
      dataSourceFactory: async (options) => {
        const dataSource = new DataSource(options!);
        bindSqliteNumbers(dataSource);
        await dataSource.initialize();
        await runMigrations(dataSource);
        return dataSource;
      },
    }),
  ],
  providers: [TransactionService, DemoSeedRegistry],
  exports: [TransactionService, DemoSeedRegistry],
})
export class DatabaseModule {}
