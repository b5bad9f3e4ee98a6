import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startService, type ServiceProcess } from './utils/service-process';

/**
 * The README's curl tour, run as written (bash, curl and node) against the built service with its demo content.
 * Only its first three lines are replaced: the service's address, and an Admin account of the test's own (the
 * demo password is random and printed once).
 */
const README = readFileSync(resolve(__dirname, '../README.md'), 'utf8');
const ADMIN = { email: 'tour-admin@example.com', password: 'a tour password' };

function tour(base: string): string {
  const section = README.split('### curl')[1] ?? '';
  const script = /```sh\n([^`]+)```/.exec(section)?.[1] ?? '';
  const replaced: string[] = [];
  const lines = script.split('\n').map((line) => {
    const replace = (value: string) => {
      replaced.push(line.split('=')[0]);
      return value;
    };
    if (line === 'B=http://127.0.0.1:3000/api/2.0') return replace(`B=${base}/api/2.0`);
    if (/^EMAIL=\S+$/.test(line)) return replace(`EMAIL=${ADMIN.email}`);
    if (/^PASSWORD='[^']*'$/.test(line)) return replace(`PASSWORD='${ADMIN.password}'`);
    return line;
  });
  expect(replaced).toEqual(['B', 'EMAIL', 'PASSWORD']);
  return lines.join('\n');
}

// The tour runs on the service's own SQLite file whatever TEST_DB says: once, in the SQLite run.
const describeInSqliteRun = process.env.TEST_DB === 'mysql' ? describe.skip : describe;

describeInSqliteRun("the README's tour (in the SQLite run)", () => {
  let service: ServiceProcess;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rgcs-tour-'));
    service = await startService({
      DB_PATH: join(dir, 'app.sqlite'),
      MEDIA_DIR: join(dir, 'media'),
      TRAINING_DIR: join(dir, 'training'),
      SEED_DEMO: 'true',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
  }, 30_000);

  it('runs as written and prints what its comments say', () => {
    const output = execFileSync('bash', ['-euo', 'pipefail', '-c', tour(service.base)], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const [title, revision, conflict, searchTotal, suggestion] = output.trim().split('\n');
    expect(title).toBe('iPhone 6 Display Removal');
    expect(Number(revision)).toBeGreaterThan(0);
    expect(conflict).toMatch(/^HTTP\/1\.1 409 /);
    expect(Number(searchTotal)).toBeGreaterThan(0);
    expect(suggestion).toBe('iPhone');
  });

  it.each(['/', '/Guide/iPhone_6_Display_Removal/1', '/api/2.0/docs'])('links to an HTML page at %s', async (path) => {
    expect(README).toContain(`<http://127.0.0.1:3000${path}>`);
    const page = await fetch(`${service.base}${path}`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
