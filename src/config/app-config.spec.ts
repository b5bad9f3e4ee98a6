import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from './app-config';
import { envSchema } from './env-schema';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:3000',
      publicUrlFromRequest: false,
      database: { type: 'sqlite', path: './data/app.sqlite', synchronous: 'normal' },
      admin: undefined,
      seedDemo: true,
      allowRegistration: true,
      mediaDir: './data/media',
      logLevel: 'info',
      logFormat: 'pretty',
      sqlCountHeader: false,
      answerCache: true,
      bodyLimit: 1024 * 1024,
      uploadLimit: 50 * 1024 * 1024,
      media: {
        storage: 'local',
        publicUrl: undefined,
        maxImagePixels: 50_000_000,
        resizeConcurrency: 2,
        s3: {
          bucket: undefined,
          region: 'us-east-1',
          endpoint: undefined,
          forcePathStyle: false,
          accessKeyId: undefined,
          secretAccessKey: undefined,
          prefix: undefined,
        },
        ffprobePath: 'ffprobe',
        ffmpegPath: 'ffmpeg',
      },
      databaseLimits: { busyTimeoutMs: 5000, queryTimeoutMs: 5000, connectTimeoutMs: 3000, poolSize: 20 },
      schedulerEnabled: true,
      mail: { smtpUrl: undefined, from: 'Repair Guides <no-reply@localhost>' },
      signingSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as string,
      audit: { key: expect.any(Buffer) as Buffer, checkpointEveryMs: 300_000 },
      trustProxy: false,
      training: {
        contentUrl: 'http://127.0.0.1:3000/training-content',
        dir: './data/training',
        uploadLimit: 524288000,
        downloadMinRate: { bytesPerSecond: 10240, windowSeconds: 30 },
        urlAllow: [],
      },
      metricsToken: undefined,
      redis: undefined,
      rateLimit: {
        api: { max: 600, windowSeconds: 60 },
        loginFailuresPerAccountAddress: { max: 10, windowSeconds: 900 },
        loginFailuresPerAccount: { max: 100, windowSeconds: 900 },
        registrationsPerAddress: { max: 20, windowSeconds: 3600 },
        syncMs: 1000,
      },
    });
  });

  it('logs human-readable in development and JSON lines elsewhere unless LOG_FORMAT says', () => {
    expect(loadConfig({}).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'production', SIGNING_SECRET: 'x'.repeat(32) }).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'test' }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT: expected pretty or json/);
    expect(() => loadConfig({ DB_SQLITE_SYNCHRONOUS: 'off' })).toThrow(
      /DB_SQLITE_SYNCHRONOUS: expected normal or full/,
    );
    expect(loadConfig({ DB_SQLITE_SYNCHRONOUS: 'full' }).database).toMatchObject({ synchronous: 'full' });
  });

  it('reads the training settings: TRAINING_CONTENT_URL, TRAINING_UPLOAD_LIMIT, TRAINING_URL_ALLOW', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://guides.example.com/',
      TRAINING_URL_ALLOW: ' Packages.Intra:8080, files.example.com ',
      TRAINING_UPLOAD_LIMIT: '1048576',
      TRAINING_DOWNLOAD_RATE_WINDOW: '5',
    });
    expect(config.training).toEqual({
      contentUrl: 'https://guides.example.com/training-content',
      dir: './data/training',
      uploadLimit: 1048576,
      downloadMinRate: { bytesPerSecond: 10240, windowSeconds: 5 },
      urlAllow: ['packages.intra:8080', 'files.example.com'],
    });
    expect(loadConfig({ TRAINING_DOWNLOAD_MIN_RATE: '0' }).training.downloadMinRate.bytesPerSecond).toBe(0);
    expect(() => loadConfig({ TRAINING_DOWNLOAD_RATE_WINDOW: '0' })).toThrow(/TRAINING_DOWNLOAD_RATE_WINDOW/);
    expect(loadConfig({ TRAINING_CONTENT_URL: 'https://content.example.com/' }).training.contentUrl).toBe(
      'https://content.example.com',
    );
    expect(() => loadConfig({ TRAINING_URL_ALLOW: 'http://x.example.com' })).toThrow(
      /TRAINING_URL_ALLOW: expected a comma list/,
    );
    expect(() => loadConfig({ TRAINING_UPLOAD_LIMIT: 'lots' })).toThrow(/TRAINING_UPLOAD_LIMIT/);
  });

  it('takes METRICS_TOKEN of at least 16 characters', () => {
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-secret' }).metricsToken).toBe('a-long-enough-secret');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: expected at least 16 characters/);
  });

  it('reads TRUST_PROXY as off, true, a hop count or a list of addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(
      /TRUST_PROXY: expected false, true, a hop count/,
    );
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL: expected a redis:/);
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2' }).redis).toEqual({
      url: 'redis://127.0.0.1:6379/2',
      keyPrefix: 'rgcs:',
    });
  });

  it('requires SIGNING_SECRET in production and at least 32 characters', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SIGNING_SECRET: required in production/);
    expect(() => loadConfig({ SIGNING_SECRET: 'short' })).toThrow(/SIGNING_SECRET: expected at least 32 characters/);
    expect(loadConfig({ SIGNING_SECRET: 'x'.repeat(32) }).signingSecret).toBe('x'.repeat(32));
    expect(loadConfig({}).signingSecret).not.toBe(loadConfig({}).signingSecret);
  });

  it('HOST on every interface without PUBLIC_URL: URLs built for this machine, then follow each request', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' })).toMatchObject({
      publicUrl: 'http://127.0.0.1:8080',
      publicUrlFromRequest: true,
    });
    expect(loadConfig({ HOST: '::' }).publicUrlFromRequest).toBe(true);
    expect(loadConfig({ HOST: '0.0.0.0', PUBLIC_URL: 'https://g.example' })).toMatchObject({
      publicUrl: 'https://g.example',
      publicUrlFromRequest: false,
    });
    expect(loadConfig({ HOST: '10.0.0.5' }).publicUrlFromRequest).toBe(false);
  });

  it('says how to generate SIGNING_SECRET', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /SIGNING_SECRET: required in production \(generate one with: openssl rand -base64 48, or node -e/,
    );
    expect(() => loadConfig({ SIGNING_SECRET: 'short' })).toThrow(/openssl rand -base64 48/);
  });

  it('reports a bad NODE_ENV in the format of every other setting', () => {
    expect(() => loadConfig({ NODE_ENV: 'prod' })).toThrow(
      'Invalid configuration:\n  - NODE_ENV: expected development, production or test (got "prod")',
    );
  });

  it('seeds demo content when SEED_DEMO says so, or when unset outside production', () => {
    const production = { NODE_ENV: 'production', SIGNING_SECRET: 'x'.repeat(32) };
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).seedDemo).toBe(true);
    expect(loadConfig(production).seedDemo).toBe(false);
    expect(loadConfig({ ...production, SEED_DEMO: '' }).seedDemo).toBe(false);
    expect(loadConfig({ ...production, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('audit key: AUDIT_HMAC_KEY as given, else derived from SIGNING_SECRET, else one fixed development key', () => {
    const secret = 's'.repeat(32);
    expect(() => loadConfig({ AUDIT_HMAC_KEY: 'short' })).toThrow(/AUDIT_HMAC_KEY: expected at least 32 characters/);
    expect(loadConfig({ AUDIT_HMAC_KEY: 'k'.repeat(32) }).audit.key).toEqual(Buffer.from('k'.repeat(32)));
    const derived = loadConfig({ SIGNING_SECRET: secret }).audit.key;
    expect(derived).toHaveLength(32);
    // Stable across starts, distinct from the signing secret itself and from another secret's key.
    expect(loadConfig({ SIGNING_SECRET: secret }).audit.key).toEqual(derived);
    expect(derived.toString('utf8')).not.toContain(secret);
    expect(loadConfig({ SIGNING_SECRET: 't'.repeat(32) }).audit.key).not.toEqual(derived);
    // Without either, the same key at every start (the random SIGNING_SECRET does not feed it).
    expect(loadConfig({}).audit.key).toEqual(loadConfig({}).audit.key);
    expect(loadConfig({}).audit.key).not.toEqual(derived);
    expect(() => loadConfig({ AUDIT_CHECKPOINT_SECONDS: '5' })).toThrow(
      /AUDIT_CHECKPOINT_SECONDS: expected an integer/,
    );
  });

  it('names the variable and what it expects when a value is bad', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT: expected an integer from 1 to 65535 \(got "eighty"\)/);
    expect(() => loadConfig({ DB_TYPE: 'postgres' })).toThrow(/DB_TYPE: expected sqlite or mysql/);
    expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO: expected one of true, false/);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL: expected an absolute URL/);
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.example' })).toThrow(
      /ADMIN_EMAIL and ADMIN_PASSWORD: expected both or neither/,
    );
  });

  it('reports every bad variable at once', () => {
    try {
      loadConfig({ PORT: '0', LOG_LEVEL: 'loud' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });

  it('reads MySQL settings from DATABASE_URL, with replicas', () => {
    const config = loadConfig({
      DB_TYPE: 'mysql',
      DATABASE_URL: 'mysql://app:s%40cret@db.internal:3307/guides',
      DB_REPLICA_HOSTS: 'r1.internal, r2.internal:3308',
    });
    expect(config.database).toEqual({
      type: 'mysql',
      primary: { host: 'db.internal', port: 3307, user: 'app', password: 's@cret', database: 'guides' },
      replicas: [
        { host: 'r1.internal', port: 3307, user: 'app', password: 's@cret', database: 'guides' },
        { host: 'r2.internal', port: 3308, user: 'app', password: 's@cret', database: 'guides' },
      ],
    });
  });

  it('strips a trailing slash from PUBLIC_URL and parses booleans', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://guides.example.com/',
      SEED_DEMO: '0',
      ALLOW_REGISTRATION: 'false',
    });
    expect(config.publicUrl).toBe('https://guides.example.com');
    expect(config.seedDemo).toBe(false);
    expect(config.allowRegistration).toBe(false);
  });
});

describe('.env.example', () => {
  it('documents every setting the service reads', () => {
    const documented = new Set(
      [...readFileSync(resolve(__dirname, '../../.env.example'), 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map(
        (m) => m[1],
      ),
    );
    expect(Object.keys(envSchema.shape).filter((key) => !documented.has(key))).toEqual([]);
  });
});
