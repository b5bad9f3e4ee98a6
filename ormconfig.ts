import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { resolveDataSourceOptions } from './src/database/data-source-options';

/** Data source for the TypeORM CLI (`npm run migration:run`), configured from the same environment as the app. */
export default resolveDataSourceOptions(loadConfig()).then((options) => new DataSource(options));
