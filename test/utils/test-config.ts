import { loadConfig, type AppConfig } from '../../src/config/app-config';

export const usingMysql = (): boolean => process.env.TEST_DB === 'mysql';

/** Config for a test app: SQLite in memory (fresh per app), or the run's MySQL database. */
export function testConfig(env: Record<string, string> = {}): AppConfig {
  const replicas = process.env.TEST_DB_REPLICA_HOSTS;
  const database: Record<string, string> = usingMysql()
    ? {
        DB_TYPE: 'mysql',
        DATABASE_URL: requireEnv('TEST_MYSQL_URL'),
        // npm run test:replica: GETs read from a real replica (scripts/faults/replica.mjs).
        ...(replicas ? { DB_REPLICA_HOSTS: replicas } : {}),
      }
    : { DB_TYPE: 'sqlite', DB_PATH: ':memory:' };
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    SCHEDULER_ENABLED: 'false',
    PUBLIC_URL: 'http://guides.test',
    MEDIA_DIR: '/tmp/rgcs-test-media',
    TRAINING_DIR: '/tmp/rgcs-test-training',
    // Suites make thousands of requests from one address and register users freely; the rate-limit
    // tests set their own limits.
    RATE_LIMIT_API_MAX: '1000000',
    RATE_LIMIT_REGISTRATIONS_PER_ADDRESS: '100000',
    ...database,
    ...env,
  });
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through jest's global setup`);
  return value;
}
