import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { load } from 'js-yaml';
import { loadConfig } from './config/app-config';
import { envSchema } from './config/env-schema';

/**
 * The README, the Dockerfile, compose.yaml and deploy/ name commands, variables, files and routes of this
 * repository; each must exist, so that the instructions work as written. What the files do when run (a
 * Docker daemon) is CI's part (.ci/run); here, what can be checked without one.
 */
const ROOT = resolve(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const VARIABLES = new Set(Object.keys(envSchema.shape));
const SCRIPTS = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const START_COMMAND = SCRIPTS['start:prod'].split(/\s+/);
const GUIDES = ['README.md', 'docs/production.md', 'docs/development.md', 'docs/using-the-api.md'];

type Service = {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: string[] | Record<string, unknown>;
  healthcheck?: unknown;
};

/** Compose's interpolation: ${NAME}, ${NAME:-default} and ${NAME:?error}, from `env`. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
    const set = env[name] !== undefined && env[name] !== '';
    if (set) return env[name];
    if (kind === '?') throw new Error(`${name}: ${rest}`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

/** Names npm scripts run by `npm run X` (and `npm start`, `npm test`) in markdown text. */
function npmScripts(text: string): string[] {
  const names = [...text.matchAll(/\bnpm run ([\w:-]+)/g)].map((match) => match[1]);
  for (const [, builtin] of text.matchAll(/\bnpm (start|test)\b/g)) names.push(builtin);
  return [...new Set(names)];
}

/** Targets of markdown links that are files of the repository (not URLs, not anchors of the same page). */
function localLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1].split('#')[0])
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target));
}

function dockerfile() {
  const text = read('Dockerfile').replace(/\\\n/g, ' ');
  const lines = text.split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
  const stages = lines.reduce<string[][]>((all, line) => {
    if (/^FROM\s/i.test(line)) all.push([]);
    all[all.length - 1]?.push(line.trim());
    return all;
  }, []);
  return { stages, runtime: stages[stages.length - 1] ?? [] };
}

function compose(): Record<string, Service> {
  return (load(read('compose.yaml')) as { services: Record<string, Service> }).services;
}

function appServices(services: Record<string, Service>): [string, Service][] {
  return Object.entries(services).filter(([, service]) => service.build === '.');
}

describe('README', () => {
  const readme = read('README.md');

  it('comes in the order a newcomer needs it', () => {
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    const wanted = ['Requirements', 'Quick start', 'Tour', 'Configuration', 'Running in production'];
    expect(headings.filter((heading) => wanted.includes(heading))).toEqual(wanted);
    expect(headings.indexOf('Documentation')).toBeGreaterThan(headings.indexOf('Running in production'));
  });

  it('gives the two quick-start commands as they are', () => {
    const quickStart = readme.split('## Quick start')[1].split('\n## ')[0];
    const commands = [...quickStart.matchAll(/```sh\n([^`]+)```/g)].map((match) => match[1].trim());
    expect(commands).toEqual(['npm install && npm start', 'npm install && npm test']);
  });

  it.each(GUIDES)('%s names only npm scripts and built entry points that exist', (file) => {
    const text = read(file);
    const missing = npmScripts(text).filter((name) => !(name in SCRIPTS));
    // `node dist/src/x.js` runs what tsconfig.build.json compiles from src/x.ts.
    for (const [, entry] of text.matchAll(/\bnode (?:--\S+ )*dist\/(\S+)\.js\b/g)) {
      if (!existsSync(join(ROOT, `${entry}.ts`))) missing.push(`dist/${entry}.js`);
    }
    expect(missing).toEqual([]);
  });

  it.each(GUIDES.concat('docs/README.md'))('%s links only to files that exist', (file) => {
    const missing = localLinks(read(file)).filter((target) => !existsSync(join(ROOT, dirname(file), target)));
    expect(missing).toEqual([]);
  });

  it('names only configuration variables that exist in its table', () => {
    const table = readme.split('## Configuration')[1].split('\n## ')[0];
    const named = [...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !VARIABLES.has(name) && !name.startsWith('MEDIA_S3_'))).toEqual([]);
  });

  it('starts the service in its systemd and Docker instructions as npm run start:prod does', () => {
    expect(readme).toContain(`\`${SCRIPTS['start:prod']}\``);
  });

  it('recognises what it checks', () => {
    expect(npmScripts('`npm run admin:password -- x`, npm start, `npm run search:reindex`')).toEqual([
      'admin:password',
      'search:reindex',
      'start',
    ]);
    expect(localLinks('[a](notes/x.md#y) [b](https://e.org) [c](#here) [d](../LICENSE)')).toEqual([
      'notes/x.md',
      '../LICENSE',
    ]);
    expect(interpolate('${A:-x} ${B:-y}/${C}', { A: 'a', B: '' })).toBe('a y/');
    expect(() => interpolate('${A:?set A}', {})).toThrow('A: set A');
  });
});

describe('Dockerfile', () => {
  const { stages, runtime } = dockerfile();

  it('builds in one stage and runs the build of another as a user other than root', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0][0]).toMatch(/^FROM node:20[\w.-]* AS build$/i);
    expect(stages[0]).toEqual(expect.arrayContaining([expect.stringMatching(/^RUN npm ci\b/)]));
    expect(stages[0]).toEqual(expect.arrayContaining([expect.stringMatching(/^RUN npm run build\b/)]));
    expect(runtime[0]).toMatch(/^FROM node:20/);
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    const user = runtime.filter((line) => /^USER\s/.test(line)).pop();
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER\s+(root|0)\b/);
  });

  it('starts the entry point of the build output as npm run start:prod does', () => {
    const cmd = runtime.find((line) => line.startsWith('CMD '));
    expect(JSON.parse(cmd!.slice(4))).toEqual(START_COMMAND);
    const entry = START_COMMAND.find((token) => token.endsWith('.js'))!;
    // tsconfig.build.json compiles src/**/*.ts into dist/ (outDir), keeping the paths under the root.
    expect(entry).toMatch(/^dist\//);
    expect(existsSync(join(ROOT, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
  });

  it('checks its health on a route the service has', () => {
    const healthcheck = runtime.find((line) => line.startsWith('HEALTHCHECK '));
    const path = /'\/(health[\w/]*)'/.exec(healthcheck ?? '')?.[1];
    const paths = (JSON.parse(read('openapi/openapi.json')) as { paths: Record<string, { get?: unknown }> }).paths;
    expect(paths[`/${path}`]?.get).toBeDefined();
  });

  it('sets only configuration variables the service reads, with its data in the volume', () => {
    const env = Object.fromEntries(
      runtime
        .filter((line) => line.startsWith('ENV '))
        .flatMap((line) => [...line.slice(4).matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1], match[2]])),
    );
    expect(Object.keys(env).filter((name) => !VARIABLES.has(name))).toEqual([]);
    const volume = runtime.find((line) => line.startsWith('VOLUME '))!.split(/\s+/)[1];
    for (const name of ['DB_PATH', 'MEDIA_DIR', 'TRAINING_DIR']) expect(env[name]).toMatch(new RegExp(`^${volume}/`));
    expect(env.NODE_ENV).toBe('production');
  });

  it('leaves local state and secrets out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'dist', 'data', '.env', '.git']) expect(ignored).toContain(entry);
  });
});

describe('compose.yaml', () => {
  const services = compose();
  const apps = appServices(services);
  const sample = { DB_PASSWORD: 'secret', SIGNING_SECRET: 'x'.repeat(48) };

  it('runs MariaDB, two instances of the image and a proxy in front of them', () => {
    expect(services.db.image).toMatch(/^mariadb:/);
    expect(apps).toHaveLength(2);
    const proxy = Object.values(services).find((service) => /^(caddy|nginx)\b/.test(service.image ?? ''));
    expect(proxy).toBeDefined();
    expect(proxy!.depends_on).toEqual(apps.map(([name]) => name));
    const [config] = (proxy!.volumes ?? []).map((volume) => volume.split(':')[0]);
    const text = read(config);
    for (const [name] of apps) expect(text).toContain(`${name}:3000`);
    expect(text).toContain('/health/ready');
  });

  it('gives each instance only variables the service reads, pointing at the MariaDB service', () => {
    const db = services.db.environment!;
    for (const [, app] of apps) {
      const env = app.environment!;
      expect(Object.keys(env).filter((name) => !VARIABLES.has(name))).toEqual([]);
      expect(env).toMatchObject({ DB_TYPE: 'mysql', DB_HOST: 'db', DB_NAME: db.MARIADB_DATABASE });
      expect(env.DB_USER).toBe(db.MARIADB_USER);
      expect(env.DB_PASSWORD).toBe(db.MARIADB_PASSWORD);
      expect(app.depends_on).toEqual({ db: { condition: 'service_healthy' } });
    }
    expect(services.db.healthcheck).toBeDefined();
  });

  it('configures a service that starts: every value passes the configuration check', () => {
    for (const [, app] of apps) {
      const env = Object.fromEntries(
        Object.entries(app.environment!).map(([name, value]) => [name, interpolate(String(value), sample)]),
      );
      const config = loadConfig(env);
      expect(config.env).toBe('production');
      expect(config.database).toMatchObject({ type: 'mysql', primary: { host: 'db', database: 'repair_guides' } });
      expect(config.trustProxy).toBe(1);
    }
    expect(() => interpolate(String(apps[0][1].environment!.SIGNING_SECRET), {})).toThrow(/SIGNING_SECRET/);
  });

  it('shares one volume of files between the instances', () => {
    const mounts = apps.map(([, app]) => app.volumes);
    expect(mounts[0]).toEqual(mounts[1]);
    const target = mounts[0]![0].split(':')[1];
    expect(apps[0][1].environment!.MEDIA_DIR.startsWith(`${target}/`)).toBe(true);
  });
});

describe('deploy/rgcs.service', () => {
  const unit = read('deploy/rgcs.service');
  const settings = unit
    .split('\n')
    .filter((line) => /^\w+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);

  it('starts the service as npm run start:prod does', () => {
    const exec = settings.find(([key]) => key === 'ExecStart')![1].split(/\s+/);
    expect(exec[0]).toMatch(/^\/.*\/node$/);
    expect(exec.slice(1)).toEqual(START_COMMAND.slice(1));
  });

  it('sets only configuration variables the service reads, with its data in its state directory', () => {
    const env = Object.fromEntries(
      settings.filter(([key]) => key === 'Environment').map(([, value]) => value.split('=') as [string, string]),
    );
    expect(Object.keys(env).filter((name) => !VARIABLES.has(name))).toEqual([]);
    const state = settings.find(([key]) => key === 'StateDirectory')![1];
    for (const name of ['DB_PATH', 'MEDIA_DIR', 'TRAINING_DIR']) {
      expect(relative(`/var/lib/${state}`, env[name]).startsWith('..')).toBe(false);
    }
    expect(env.NODE_ENV).toBe('production');
  });
});
