import { DynamicModule, Global, Module } from '@nestjs/common';
import { LOG_ROOT, type RootLogger } from '../common/http/log-root';
import { AppConfig } from './app-config';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Provides the validated AppConfig (APP_CONFIG) and the root logger (LOG_ROOT) to every module. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, log: RootLogger = { logger: undefined }): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: LOG_ROOT, useValue: log },
      ],
      exports: [APP_CONFIG, LOG_ROOT],
    };
  }
}
