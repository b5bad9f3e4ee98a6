import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:3000',
      database: { type: 'sqlite', path: './data/app.sqlite' },
      admin: undefined,
      seedDemo: true,
      allowRegistration: true,
      mediaDir: './data/media',
      logLevel: 'info',
      sqlCountHeader: false,
      bodyLimit: 1024 * 1024,
      uploadLimit: 50 * 1024 * 1024,
      media: {
        storage: 'local',
        publicUrl: undefined,
        maxImagePixels: 100_000_000,
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
    });
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
