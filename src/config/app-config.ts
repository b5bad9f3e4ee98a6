import { randomBytes } from 'node:crypto';
import { auditKey } from './audit-key';
import { envSchema, GENERATE_SECRET, LOG_LEVELS, WILDCARD_HOSTS, type Env } from './env-schema';

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

export interface RateLimitConfig {
  /** Every API request, per token (when one is sent) or else per client address. */
  api: RateLimit;
  /** Failed logins for one account from one client address. */
  loginFailuresPerAccountAddress: RateLimit;
  /** Failed logins for one account from anywhere. */
  loginFailuresPerAccount: RateLimit;
  /** Self-registrations per client address (an Admin's POST /users is not counted). */
  registrationsPerAddress: RateLimit;
  /** How often each instance merges its API-limit counts into the shared store (ms). */
  syncMs: number;
}

export interface MediaConfig {
  storage: 'local' | 's3';
  /** Base of file URLs in responses (e.g. a CDN); default: served by the service. */
  publicUrl: string | undefined;
  /** Decompression-bomb guard: largest width × height accepted. */
  maxImagePixels: number;
  /** Image renders running at once per instance (each holds one decoded image). */
  resizeConcurrency: number;
  s3: {
    bucket: string | undefined;
    region: string;
    endpoint: string | undefined;
    forcePathStyle: boolean;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
    prefix: string | undefined;
  };
  ffprobePath: string;
  ffmpegPath: string;
}

export interface MysqlConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /**
   * Base for absolute URLs in responses, without a trailing slash. With publicUrlFromRequest, the base they
   * are built with, which each response replaces with its request's (common/http/request-base-url.ts).
   */
  publicUrl: string;
  /** HOST is every interface (0.0.0.0, ::) and PUBLIC_URL unset: URLs follow each request's Host. */
  publicUrlFromRequest: boolean;
  database:
    | { type: 'sqlite'; path: string; synchronous: 'normal' | 'full' }
    | { type: 'mysql'; primary: MysqlConnection; replicas: MysqlConnection[] };
  admin: { email: string; password: string } | undefined;
  seedDemo: boolean;
  allowRegistration: boolean;
  mediaDir: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /** pretty (human-readable, the default in development) or json lines (pino; the default otherwise). */
  logFormat: 'pretty' | 'json';
  /**
   * Send `X-Sql-Statements` (statements run for the request) on every response, and on MySQL `X-Sql-Round-Trips`
   * (queries sent: statements of a transaction may travel together): for benchmarks and tests.
   */
  sqlCountHeader: boolean;
  /** Keep whole anonymous answers of the hottest reads in memory (src/platform/response-cache/response-cache.ts). */
  answerCache: boolean;
  bodyLimit: number;
  uploadLimit: number;
  media: MediaConfig;
  /** Time limits and pool size of the database connection (see DatabaseUnavailableError). */
  databaseLimits: { busyTimeoutMs: number; queryTimeoutMs: number; connectTimeoutMs: number; poolSize: number };
  /** Timers for event delivery, jobs and scheduled tasks; tests turn them off and call them directly. */
  schedulerEnabled: boolean;
  mail: { smtpUrl: string | undefined; from: string };
  /** HMAC key for signed URLs and tokens: from SIGNING_SECRET, or random per start outside production. */
  signingSecret: string;
  audit: AuditConfig;
  /** Fastify's trustProxy: which proxies' X-Forwarded-For gives the client address. */
  trustProxy: boolean | number | string[];
  /** Bearer token of GET /metrics; without one the route answers 404. */
  metricsToken: string | undefined;
  /** Rate-limit counters go to Redis when set, else to the database. */
  redis: { url: string; keyPrefix: string } | undefined;
  rateLimit: RateLimitConfig;
  training: TrainingConfig;
}

/** External training modules (docs/enterprise/training-modules.md). */
export interface TrainingConfig {
  /** Where packages are stored: `{dir}/modules/{moduleid}/{versionid}/`, uploads under `{dir}/incoming/`. */
  dir: string;
  /** Base of package file URLs and of the player page, without a trailing slash. */
  contentUrl: string;
  /** Largest package accepted by byUpload and byUrl (bytes). */
  uploadLimit: number;
  /** byUrl downloads slower than this over a window fail (bytesPerSecond 0: no floor). */
  downloadMinRate: { bytesPerSecond: number; windowSeconds: number };
  /** `host` or `host:port` entries (lowercase) exempt from the byUrl address filter; plain http allowed. */
  urlAllow: string[];
}

export interface AuditConfig {
  /** HMAC key of the audit chain and its checkpoints (never logged or answered). */
  key: Buffer;
  /** How often a signed checkpoint of the chain heads is written (ms). */
  checkpointEveryMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function mysqlFromUrl(value: string): MysqlConnection {
  const parsed = new URL(value);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decodeURIComponent(parsed.username || 'root'),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'repair_guides',
  };
}

function replicaHosts(list: string, primary: MysqlConnection, problems: string[]): MysqlConnection[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [host, port] = entry.split(':');
      const portNumber = port === undefined ? primary.port : Number(port);
      if (!host || !Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535) {
        problems.push(`DB_REPLICA_HOSTS: expected a comma list of host[:port] (got "${entry}")`);
      }
      return { ...primary, host, port: portNumber };
    });
}

/** Reads and validates the environment once; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const e = parseEnv(env);
  const problems: string[] = [];
  const database = databaseConfig(e, problems);
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD: expected both or neither');
  }
  if (e.NODE_ENV === 'production' && !e.SIGNING_SECRET)
    problems.push(`SIGNING_SECRET: required in production (${GENERATE_SECRET})`);
  if (e.MEDIA_STORAGE === 's3' && !e.MEDIA_S3_BUCKET) problems.push('MEDIA_S3_BUCKET: required when MEDIA_STORAGE=s3');
  if (problems.length) throw new ConfigError(problems);
  const publicUrlFromRequest = !e.PUBLIC_URL && WILDCARD_HOSTS.has(e.HOST);
  // Every interface has no address to give out: URLs are built for this machine, then follow each request.
  const host = publicUrlFromRequest ? '127.0.0.1' : e.HOST;
  const publicUrl = (e.PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    publicUrlFromRequest,
    database,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    seedDemo: e.SEED_DEMO ?? e.NODE_ENV !== 'production',
    allowRegistration: e.ALLOW_REGISTRATION,
    mediaDir: e.MEDIA_DIR,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === 'development' ? 'pretty' : 'json'),
    sqlCountHeader: e.SQL_COUNT_HEADER,
    answerCache: e.ANSWER_CACHE,
    bodyLimit: e.BODY_LIMIT,
    uploadLimit: e.UPLOAD_LIMIT,
    media: mediaConfig(e),
    databaseLimits: {
      busyTimeoutMs: e.DB_BUSY_TIMEOUT_MS,
      queryTimeoutMs: e.DB_QUERY_TIMEOUT_MS,
      connectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
      poolSize: e.DB_POOL_SIZE,
    },
    schedulerEnabled: e.SCHEDULER_ENABLED,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    signingSecret: e.SIGNING_SECRET ?? randomBytes(32).toString('base64url'),
    audit: { key: auditKey(e.AUDIT_HMAC_KEY, e.SIGNING_SECRET), checkpointEveryMs: e.AUDIT_CHECKPOINT_SECONDS * 1000 },
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
    redis: e.REDIS_URL ? { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX } : undefined,
    rateLimit: rateLimitConfig(e),
    training: trainingConfig(e, publicUrl),
  };
}

/** The environment parsed by envSchema; ConfigError naming each variable it refuses and the value it got. */
function parseEnv(env: NodeJS.ProcessEnv): Env {
  const result = envSchema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '?');
      const got = env[name];
      return `${name}: ${issue.message}${got === undefined ? '' : ` (got "${got}")`}`;
    }),
  );
}

function databaseConfig(e: Env, problems: string[]): AppConfig['database'] {
  if (e.DB_TYPE !== 'mysql') return { type: 'sqlite', path: e.DB_PATH, synchronous: e.DB_SQLITE_SYNCHRONOUS };
  const primary = e.DATABASE_URL
    ? mysqlFromUrl(e.DATABASE_URL)
    : { host: e.DB_HOST, port: e.DB_PORT, user: e.DB_USER, password: e.DB_PASSWORD, database: e.DB_NAME };
  return {
    type: 'mysql',
    primary,
    replicas: e.DB_REPLICA_HOSTS ? replicaHosts(e.DB_REPLICA_HOSTS, primary, problems) : [],
  };
}

function mediaConfig(e: Env): AppConfig['media'] {
  return {
    storage: e.MEDIA_STORAGE,
    publicUrl: e.MEDIA_PUBLIC_URL?.replace(/\/+$/, ''),
    maxImagePixels: e.MEDIA_MAX_PIXELS,
    resizeConcurrency: e.MEDIA_RESIZE_CONCURRENCY,
    s3: {
      bucket: e.MEDIA_S3_BUCKET,
      region: e.MEDIA_S3_REGION,
      endpoint: e.MEDIA_S3_ENDPOINT,
      forcePathStyle: e.MEDIA_S3_FORCE_PATH_STYLE,
      accessKeyId: e.MEDIA_S3_ACCESS_KEY_ID,
      secretAccessKey: e.MEDIA_S3_SECRET_ACCESS_KEY,
      prefix: e.MEDIA_S3_PREFIX,
    },
    ffprobePath: e.FFPROBE_PATH,
    ffmpegPath: e.FFMPEG_PATH,
  };
}

function rateLimitConfig(e: Env): AppConfig['rateLimit'] {
  return {
    api: { max: e.RATE_LIMIT_API_MAX, windowSeconds: e.RATE_LIMIT_API_WINDOW },
    loginFailuresPerAccountAddress: {
      max: e.RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS,
      windowSeconds: e.RATE_LIMIT_LOGIN_WINDOW,
    },
    loginFailuresPerAccount: {
      max: e.RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT,
      windowSeconds: e.RATE_LIMIT_LOGIN_WINDOW,
    },
    registrationsPerAddress: {
      max: e.RATE_LIMIT_REGISTRATIONS_PER_ADDRESS,
      windowSeconds: e.RATE_LIMIT_REGISTRATION_WINDOW,
    },
    syncMs: e.RATE_LIMIT_SYNC_MS,
  };
}

function trainingConfig(e: Env, publicUrl: string): AppConfig['training'] {
  return {
    dir: e.TRAINING_DIR,
    contentUrl: (e.TRAINING_CONTENT_URL ?? `${publicUrl}/training-content`).replace(/\/+$/, ''),
    uploadLimit: e.TRAINING_UPLOAD_LIMIT,
    downloadMinRate: {
      bytesPerSecond: e.TRAINING_DOWNLOAD_MIN_RATE,
      windowSeconds: e.TRAINING_DOWNLOAD_RATE_WINDOW,
    },
    urlAllow: e.TRAINING_URL_ALLOW,
  };
}
