import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { buildDataSourceOptions } from './src/database/data-source-options';

/** Data source for the TypeORM CLI (`npm run migration:run`), configured from the same environment as the app. */
export default new DataSource(buildDataSourceOptions(loadConfig()));
