import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/** The service's version from its package.json (found upwards from this file, in src/ or dist/). */
export function packageVersion(): string {
  if (cached) return cached;
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'repair-guide-content-service') return (cached = pkg.version ?? '0.0.0');
  }
  return (cached = '0.0.0');
}
