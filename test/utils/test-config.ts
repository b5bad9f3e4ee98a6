import { loadConfig, type AppConfig } from '../../src/config/app-config';

export const usingMysql = (): boolean => process.env.TEST_DB === 'mysql';

/** Config for a test app: SQLite in memory (fresh per app), or the run's MySQL database. */
export function testConfig(env: Record<string, string> = {}): AppConfig {
  const database: Record<string, string> = usingMysql()
    ? { DB_TYPE: 'mysql', DATABASE_URL: requireEnv('TEST_MYSQL_URL') }
    : { DB_TYPE: 'sqlite', DB_PATH: ':memory:' };
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    PUBLIC_URL: 'http://guides.test',
    MEDIA_DIR: '/tmp/rgcs-test-media',
    ...database,
    ...env,
  });
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through jest's global setup`);
  return value;
}
