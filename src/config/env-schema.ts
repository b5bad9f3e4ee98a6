import { isIP } from 'node:net';
import { z } from 'zod';

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

export const GENERATE_SECRET =
  "generate one with: openssl rand -base64 48, or node -e \"console.log(require('crypto').randomBytes(48).toString('base64'))\"";

export const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

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
  ANSWER_CACHE: booleanFlag(true),
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

export type Env = z.infer<typeof envSchema>;
