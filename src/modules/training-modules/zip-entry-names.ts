import type { PackageFile, PackageLimits } from './package-types';
import { PackageError } from './package-types';

/**
 * Refuses names that are unsafe to write under a folder (on top of yauzl's checks), and answers the name as it
 * lands on disk: `.` segments and doubled slashes dropped (`./index.html` is `index.html`); a folder keeps
 * its trailing slash, and the root folder (`./`) is ''.
 */
export function checkName(raw: string, limits: PackageLimits): string {
  const name = raw.replace(/\\/g, '/');
  if (name.includes('\0')) throw new PackageError('ZIP_UNSAFE_PATH', 'An entry name contains NUL');
  if (Buffer.byteLength(name) > limits.maxNameBytes) {
    throw new PackageError('ZIP_UNSAFE_PATH', `An entry name is longer than ${limits.maxNameBytes} bytes`);
  }
  if (name.startsWith('/') || /^[a-z]:/i.test(name)) {
    throw new PackageError('ZIP_UNSAFE_PATH', `Absolute entry name: ${name}`);
  }
  const segments = name.split('/');
  if (segments.includes('..')) throw new PackageError('ZIP_UNSAFE_PATH', `Entry name with "..": ${name}`);
  const kept = segments.filter((segment) => segment !== '' && segment !== '.').join('/');
  const folder = name.endsWith('/');
  if (!kept && !folder) throw new PackageError('ZIP_UNSAFE_PATH', `Entry name without a file name: ${name}`);
  return kept && folder ? `${kept}/` : kept;
}

/**
 * Refuses a file whose path is also a folder of another entry (`a` beside `a/b.txt`): sorted with `/` below
 * every other character, the entries under a folder follow its name at once.
 */
export function checkFoldersAreNotFiles(files: PackageFile[]): void {
  const keys = files.map((f) => f.path.replace(/\//g, '\0')).sort();
  for (let i = 1; i < keys.length; i += 1) {
    if (keys[i].startsWith(`${keys[i - 1]}\0`)) {
      const name = keys[i - 1].replace(/\0/g, '/');
      throw new PackageError('ZIP_UNSAFE_PATH', `${name} is both a file and a folder`);
    }
  }
}
