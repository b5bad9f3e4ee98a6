// Builds (scripts/build.mjs) only when the build's inputs changed since the last build, so `npm start` on a current
// build starts in seconds. Inputs: src/, ormconfig.ts, tsconfig*.json, package.json, package-lock.json and the build
// script. The fingerprint hashes each file's path and CONTENT (never timestamps: `npm install` rewrites
// package-lock.json unchanged, a checkout touches files), kept in dist/.build-inputs after a successful build.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const STAMP = join(root, 'dist', '.build-inputs');

function inputs() {
  const tsconfigs = readdirSync(root).filter((name) => /^tsconfig.*\.json$/.test(name));
  return ['src', 'ormconfig.ts', 'package.json', 'package-lock.json', 'scripts/build.mjs', ...tsconfigs];
}

function files(path) {
  if (!existsSync(path)) return [];
  const stat = statSync(path);
  if (!stat.isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => files(join(path, name)));
}

export function fingerprint() {
  const hash = createHash('sha256');
  for (const file of inputs()
    .flatMap((input) => files(join(root, input)))
    .sort()) {
    const content = createHash('sha256').update(readFileSync(file)).digest('hex');
    hash.update(`${relative(root, file)}\0${content}\n`);
  }
  return hash.digest('hex');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const current = fingerprint();
  const built = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
  if (built === current && existsSync(join(root, 'dist', 'src', 'main.js'))) {
    process.stdout.write('build is current (sources unchanged since the last build)\n');
  } else {
    process.stdout.write('building (sources changed since the last build)…\n');
    const result = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
    writeFileSync(STAMP, `${current}\n`);
  }
}
