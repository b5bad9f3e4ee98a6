import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from './spawn-service';

const SCRIPT = resolve(__dirname, '../../scripts/build-if-stale.mjs');

/**
 * A project with the real build-if-stale.mjs and a stand-in scripts/build.mjs that records each build
 * (the real one takes a minute): what is tested is the decision to build, not the compile.
 */
function project(): { dir: string; check: () => string; builds: () => number } {
  const dir = tempDir();
  mkdirSync(join(dir, 'scripts'));
  mkdirSync(join(dir, 'src'));
  copyFileSync(SCRIPT, join(dir, 'scripts', 'build-if-stale.mjs'));
  writeFileSync(
    join(dir, 'scripts', 'build.mjs'),
    [
      "import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';",
      "rmSync('dist', { recursive: true, force: true });",
      "mkdirSync('dist/src', { recursive: true });",
      "writeFileSync('dist/src/main.js', '');",
      "appendFileSync('builds.log', 'built\\n');",
    ].join('\n'),
  );
  writeFileSync(join(dir, 'src', 'main.ts'), 'export const answer = 42;\n');
  writeFileSync(join(dir, 'package.json'), '{"name": "p"}\n');
  writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion": 3}\n');
  writeFileSync(join(dir, 'tsconfig.json'), '{}\n');
  writeFileSync(join(dir, 'tsconfig.build.json'), '{}\n');
  const check = () => {
    const run = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(0);
    return run.stdout;
  };
  const builds = () => {
    try {
      return readFileSync(join(dir, 'builds.log'), 'utf8').split('\n').filter(Boolean).length;
    } catch {
      return 0;
    }
  };
  return { dir, check, builds };
}

const later = (path: string) => {
  const time = new Date(Date.now() + 60_000);
  utimesSync(path, time, time);
};

describe('scripts/build-if-stale.mjs (npm start, npm test)', () => {
  it('builds once, then not again for files touched or rewritten with the same content', () => {
    const { dir, check, builds } = project();
    expect(check()).toContain('building');
    expect(builds()).toBe(1);
    expect(check()).toBe('build is current (sources unchanged since the last build)\n');

    // What `npm install` does to an unchanged lock file, and a checkout to the sources.
    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion": 3}\n');
    later(join(dir, 'package-lock.json'));
    later(join(dir, 'src', 'main.ts'));
    later(join(dir, 'tsconfig.json'));
    expect(check()).toContain('build is current');
    expect(builds()).toBe(1);
  });

  it.each([
    ['the content of a source', 'src/main.ts', 'export const answer = 43;\n'],
    ['the sources (a new file)', 'src/extra.ts', 'export {};\n'],
    ['the content of the lock file', 'package-lock.json', '{"lockfileVersion": 3, "packages": {}}\n'],
    ['package.json', 'package.json', '{"name": "q"}\n'],
    ['a tsconfig', 'tsconfig.build.json', '{"compilerOptions": {}}\n'],
    ['the build script', 'scripts/build.mjs', null],
  ])('rebuilds when %s changes', (_what, file, content) => {
    const { dir, check, builds } = project();
    check();
    const path = join(dir, file);
    writeFileSync(path, content ?? `${readFileSync(path, 'utf8')}\n// changed\n`);
    expect(check()).toContain('building');
    expect(builds()).toBe(2);
    expect(check()).toContain('build is current');
  });
});
