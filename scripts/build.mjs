// npm run build: a clean compile of src/ (and ormconfig.ts) into dist/ with the project's TypeScript.
// The OpenAPI plugin's output is not compiled in: the app loads src/metadata.ts (scripts/generate-metadata.mjs).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
