import { z } from 'zod';

const MIB = 1024 * 1024;

const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], {
      error: 'expected one of true, false, 1, 0, yes, no',
    })
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1' || value === 'yes');

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

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: integer(3000, 1, 65535),
  HOST: z.string().trim().min(1, 'expected a host name or address').default('127.0.0.1'),
  PUBLIC_URL: url('e.g. https://guides.example.com'),
  DB_TYPE: z.enum(['sqlite', 'mysql'], { error: 'expected sqlite or mysql' }).default('sqlite'),
  DB_PATH: z.string().trim().min(1).default('./data/app.sqlite'),
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
  SEED_DEMO: booleanFlag(true),
  ALLOW_REGISTRATION: booleanFlag(true),
  MEDIA_DIR: z.string().trim().min(1).default('./data/media'),
  SQL_COUNT_HEADER: booleanFlag(false),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  BODY_LIMIT: integer(1 * MIB, 1024, 1024 * MIB),
  UPLOAD_LIMIT: integer(50 * MIB, 1024, 4096 * MIB),
  MEDIA_STORAGE: z
    .string()
    .default('local')
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.enum(['local', 's3'], { error: 'expected local or s3' })),
  MEDIA_PUBLIC_URL: url('base of media file URLs, e.g. a CDN'),
  MEDIA_MAX_PIXELS: integer(100_000_000, 2500, 10_000_000_000),
  MEDIA_S3_BUCKET: optionalString,
  MEDIA_S3_REGION: z.string().trim().min(1).default('us-east-1'),
  MEDIA_S3_ENDPOINT: url('e.g. http://127.0.0.1:9000'),
  MEDIA_S3_FORCE_PATH_STYLE: booleanFlag(false),
  MEDIA_S3_ACCESS_KEY_ID: optionalString,
  MEDIA_S3_SECRET_ACCESS_KEY: optionalString,
  MEDIA_S3_PREFIX: optionalString,
  FFPROBE_PATH: z.string().trim().min(1).default('ffprobe'),
  FFMPEG_PATH: z.string().trim().min(1).default('ffmpeg'),
});

export interface MediaConfig {
  storage: 'local' | 's3';
  /** Base of file URLs in responses (e.g. a CDN); default: served by the service. */
  publicUrl: string | undefined;
  /** Decompression-bomb guard: largest width × height accepted. */
  maxImagePixels: number;
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
  /** Base for absolute URLs in responses, without a trailing slash. */
  publicUrl: string;
  database: { type: 'sqlite'; path: string } | { type: 'mysql'; primary: MysqlConnection; replicas: MysqlConnection[] };
  admin: { email: string; password: string } | undefined;
  seedDemo: boolean;
  allowRegistration: boolean;
  mediaDir: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Send `X-Sql-Statements` (statements run for the request) on every response: for benchmarks and tests. */
  sqlCountHeader: boolean;
  bodyLimit: number;
  uploadLimit: number;
  media: MediaConfig;
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
    database = { type: 'sqlite', path: e.DB_PATH };
  }
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD: expected both or neither');
  }
  if (e.MEDIA_STORAGE === 's3' && !e.MEDIA_S3_BUCKET) problems.push('MEDIA_S3_BUCKET: required when MEDIA_STORAGE=s3');
  if (problems.length) throw new ConfigError(problems);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`).replace(
      /\/+$/,
      '',
    ),
    database,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    seedDemo: e.SEED_DEMO,
    allowRegistration: e.ALLOW_REGISTRATION,
    mediaDir: e.MEDIA_DIR,
    logLevel: e.LOG_LEVEL,
    sqlCountHeader: e.SQL_COUNT_HEADER,
    bodyLimit: e.BODY_LIMIT,
    uploadLimit: e.UPLOAD_LIMIT,
    media: {
      storage: e.MEDIA_STORAGE,
      publicUrl: e.MEDIA_PUBLIC_URL?.replace(/\/+$/, ''),
      maxImagePixels: e.MEDIA_MAX_PIXELS,
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
  };
}
