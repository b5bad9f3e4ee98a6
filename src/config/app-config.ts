import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import { auditKey } from './audit-key';

const MIB = 1024 * 1024;

const flag = z.enum(['true', 'false', '1', '0', 'yes', 'no'], {
  error: 'expected one of true, false, 1, 0, yes, no',
});
const isOn = (value: string) => value === 'true' || value === '1' || value === 'yes';

const booleanFlag = (fallback: boolean) => flag.default(fallback ? 'true' : 'false').transform(isOn);

/** A flag whose default depends on other settings: undefined when not set. */
const optionalFlag = z
  .preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), flag.optional())
  .transform((value) => (value === undefined ? undefined : isOn(value)));

const integer = (fallback: number, min: number, max: number) =>
  z
    .string()
    .default(String(fallback))
    .transform((value, ctx) => {
      const parsed = Number(value);
      if (!/^\d+$/.test(value.trim()) || parsed < min || parsed > max) {
        ctx.addIssue({ code: 'custom', message: `expected an integer from ${min} to ${max}` });
        return z.NEVER;
      }
      return parsed;
    });

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const url = (what: string) =>
  optionalString.refine((value) => value === undefined || URL.canParse(value), {
    message: `expected an absolute URL (${what})`,
  });

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** Fastify's trustProxy: off, true (any proxy), a hop count, or a comma list of addresses/CIDRs. */
const trustProxy = z
  .string()
  .default('false')
  .transform((value, ctx): boolean | number | string[] => {
    const v = value.trim().toLowerCase();
    if (['', 'false', 'off', 'no', '0'].includes(v)) return false;
    if (['true', 'on', 'yes'].includes(v)) return true;
    if (/^\d+$/.test(v) && Number(v) <= 100) return Number(v);
    const list = v
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const valid = (entry: string) => {
      if (PROXY_NAMES.includes(entry)) return true;
      const [address, prefix, extra] = entry.split('/');
      return isIP(address) !== 0 && extra === undefined && (prefix === undefined || /^\d{1,3}$/.test(prefix));
    };
    if (!list.length || !list.every(valid)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'expected false, true, a hop count or a comma list of addresses/CIDRs (loopback, linklocal, uniquelocal)',
      });
      return z.NEVER;
    }
    return list;
  });

const GENERATE_SECRET =
  "generate one with: openssl rand -base64 48, or node -e \"console.log(require('crypto').randomBytes(48).toString('base64'))\"";

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { error: 'expected development, production or test' })
    .default('development'),
  PORT: integer(3000, 1, 65535),
  HOST: z.string().trim().min(1, 'expected a host name or address').default('127.0.0.1'),
  PUBLIC_URL: url('e.g. https://guides.example.com'),
  DB_TYPE: z.enum(['sqlite', 'mysql'], { error: 'expected sqlite or mysql' }).default('sqlite'),
  DB_PATH: z.string().trim().min(1).default('./data/app.sqlite'),
  DB_SQLITE_SYNCHRONOUS: z.enum(['normal', 'full'], { error: 'expected normal or full' }).default('normal'),
  DB_HOST: z.string().trim().min(1).default('127.0.0.1'),
  DB_PORT: integer(3306, 1, 65535),
  DB_USER: z.string().default('root'),
  DB_PASSWORD: z.string().default(''),
  DB_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_$]{1,64}$/, 'expected a database name of letters, digits, _ or $')
    .default('repair_guides'),
  DATABASE_URL: url('mysql://user:password@host:port/database').refine(
    (value) => value === undefined || /^mysql:\/\//.test(value),
    { message: 'expected a mysql:// URL' },
  ),
  DB_REPLICA_HOSTS: optionalString,
  ADMIN_EMAIL: optionalString.refine((v) => v === undefined || z.email().safeParse(v).success, {
    message: 'expected an e-mail address',
  }),
  ADMIN_PASSWORD: optionalString.refine((v) => v === undefined || v.length >= 10, {
    message: 'expected at least 10 characters',
  }),
  // Unset: demo content outside production only.
  SEED_DEMO: optionalFlag,
  ALLOW_REGISTRATION: booleanFlag(true),
  MEDIA_DIR: z.string().trim().min(1).default('./data/media'),
  SQL_COUNT_HEADER: booleanFlag(false),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  LOG_FORMAT: optionalString.pipe(z.enum(['pretty', 'json'], { error: 'expected pretty or json' }).optional()),
  BODY_LIMIT: integer(1 * MIB, 1024, 1024 * MIB),
  UPLOAD_LIMIT: integer(50 * MIB, 1024, 4096 * MIB),
  MEDIA_STORAGE: z
    .string()
    .default('local')
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.enum(['local', 's3'], { error: 'expected local or s3' })),
  MEDIA_PUBLIC_URL: url('base of media file URLs, e.g. a CDN'),
  MEDIA_MAX_PIXELS: integer(50_000_000, 2500, 10_000_000_000),
  MEDIA_RESIZE_CONCURRENCY: integer(2, 1, 64),
  MEDIA_S3_BUCKET: optionalString,
  MEDIA_S3_REGION: z.string().trim().min(1).default('us-east-1'),
  MEDIA_S3_ENDPOINT: url('e.g. http://127.0.0.1:9000'),
  MEDIA_S3_FORCE_PATH_STYLE: booleanFlag(false),
  MEDIA_S3_ACCESS_KEY_ID: optionalString,
  MEDIA_S3_SECRET_ACCESS_KEY: optionalString,
  MEDIA_S3_PREFIX: optionalString,
  DB_BUSY_TIMEOUT_MS: integer(5000, 0, 600_000),
  DB_QUERY_TIMEOUT_MS: integer(5000, 100, 3_600_000),
  DB_CONNECT_TIMEOUT_MS: integer(3000, 100, 600_000),
  DB_POOL_SIZE: integer(20, 1, 1000),
  SCHEDULER_ENABLED: booleanFlag(true),
  SMTP_URL: url('e.g. smtp://user:password@mail.example.com:587').refine(
    (value) => value === undefined || /^smtps?:\/\//.test(value),
    { message: 'expected an smtp:// or smtps:// URL' },
  ),
  MAIL_FROM: z.string().trim().min(3).default('Repair Guides <no-reply@localhost>'),
  SIGNING_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: `expected at least 32 characters (${GENERATE_SECRET})`,
  }),
  AUDIT_HMAC_KEY: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: 'expected at least 32 characters',
  }),
  AUDIT_CHECKPOINT_SECONDS: integer(300, 10, 86_400),
  FFPROBE_PATH: z.string().trim().min(1).default('ffprobe'),
  FFMPEG_PATH: z.string().trim().min(1).default('ffmpeg'),
  TRUST_PROXY: trustProxy,
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, {
    message: 'expected at least 16 characters',
  }),
  REDIS_URL: url('redis://host:6379/0').refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
    message: 'expected a redis:// or rediss:// URL',
  }),
  REDIS_KEY_PREFIX: z.string().default('rgcs:'),
  RATE_LIMIT_API_MAX: integer(600, 0, 1_000_000_000),
  RATE_LIMIT_API_WINDOW: integer(60, 1, 86_400),
  RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS: integer(10, 0, 1_000_000_000),
  RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: integer(100, 0, 1_000_000_000),
  RATE_LIMIT_LOGIN_WINDOW: integer(900, 1, 86_400),
  RATE_LIMIT_REGISTRATIONS_PER_ADDRESS: integer(20, 0, 1_000_000_000),
  RATE_LIMIT_REGISTRATION_WINDOW: integer(3600, 1, 86_400),
  RATE_LIMIT_SYNC_MS: integer(1000, 10, 60_000),
  TRAINING_DIR: z.string().trim().min(1).default('./data/training'),
  TRAINING_CONTENT_URL: url('base of training package files, e.g. https://training-content.example.com'),
  TRAINING_UPLOAD_LIMIT: integer(500 * MIB, 1024, 16 * 1024 * MIB),
  TRAINING_DOWNLOAD_MIN_RATE: integer(10 * 1024, 0, 1024 * MIB),
  TRAINING_DOWNLOAD_RATE_WINDOW: integer(30, 1, 3600),
  TRAINING_URL_ALLOW: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const list = value
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean);
      const valid = (entry: string) => /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(entry);
      if (!list.every(valid)) {
        ctx.addIssue({ code: 'custom', message: 'expected a comma list of host or host:port' });
        return z.NEVER;
      }
      return list;
    }),
});

/** A limit of `max` events per `windowSeconds`; max 0 turns it off. */
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
  const result = envSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? '?');
        const got = env[name];
        return `${name}: ${issue.message}${got === undefined ? '' : ` (got "${got}")`}`;
      }),
    );
  }
  const e = result.data;
  const problems: string[] = [];
  let database: AppConfig['database'];
  if (e.DB_TYPE === 'mysql') {
    const primary = e.DATABASE_URL
      ? mysqlFromUrl(e.DATABASE_URL)
      : { host: e.DB_HOST, port: e.DB_PORT, user: e.DB_USER, password: e.DB_PASSWORD, database: e.DB_NAME };
    database = {
      type: 'mysql',
      primary,
      replicas: e.DB_REPLICA_HOSTS ? replicaHosts(e.DB_REPLICA_HOSTS, primary, problems) : [],
    };
  } else {
    database = { type: 'sqlite', path: e.DB_PATH, synchronous: e.DB_SQLITE_SYNCHRONOUS };
  }
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
    bodyLimit: e.BODY_LIMIT,
    uploadLimit: e.UPLOAD_LIMIT,
    media: {
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
    },
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
    rateLimit: {
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
    },
    training: {
      dir: e.TRAINING_DIR,
      contentUrl: (e.TRAINING_CONTENT_URL ?? `${publicUrl}/training-content`).replace(/\/+$/, ''),
      uploadLimit: e.TRAINING_UPLOAD_LIMIT,
      downloadMinRate: {
        bytesPerSecond: e.TRAINING_DOWNLOAD_MIN_RATE,
        windowSeconds: e.TRAINING_DOWNLOAD_RATE_WINDOW,
      },
      urlAllow: e.TRAINING_URL_ALLOW,
    },
  };
}
