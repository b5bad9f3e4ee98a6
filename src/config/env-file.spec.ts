import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './app-config';
import { loadEnvFile, parseEnvFile } from './env-file';

describe('.env files', () => {
  it('reads the format of .env.example: trailing comments, empty values, quotes', () => {
    expect(
      parseEnvFile(
        [
          '# a comment',
          'PORT=3000                          # port to listen on',
          'PUBLIC_URL=                        # default http://HOST:PORT',
          'MAIL_FROM="Repair Guides <no-reply@example.com>"  # quoted, # kept',
          "ADMIN_PASSWORD='pa#ss word'",
          'export LOG_LEVEL=debug',
          'SMTP_URL=smtp://user:pa#ss@host:25',
          'not a setting',
          '',
        ].join('\n'),
      ),
    ).toEqual({
      PORT: '3000',
      PUBLIC_URL: '',
      MAIL_FROM: 'Repair Guides <no-reply@example.com>',
      ADMIN_PASSWORD: 'pa#ss word',
      LOG_LEVEL: 'debug',
      SMTP_URL: 'smtp://user:pa#ss@host:25',
    });
  });

  it('loads a file without overriding the environment, and ignores a missing file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rgcs-env-'));
    const file = join(dir, '.env');
    writeFileSync(file, 'PORT=4000\nHOST=0.0.0.0\n');
    const env: NodeJS.ProcessEnv = { PORT: '5000' };
    expect(loadEnvFile(file, env)).toEqual(['HOST']);
    expect(env).toEqual({ PORT: '5000', HOST: '0.0.0.0' });
    expect(loadEnvFile(join(dir, 'missing.env'), env)).toEqual([]);
  });

  it('the shipped .env.example parses to a valid configuration that names every operations setting', () => {
    const example = parseEnvFile(readFileSync(join(__dirname, '../../.env.example'), 'utf8'));
    expect(Object.keys(example)).toEqual(
      expect.arrayContaining(['PORT', 'LOG_FORMAT', 'METRICS_TOKEN', 'TRUST_PROXY']),
    );
    expect(() => loadConfig(example)).not.toThrow();
  });
});
