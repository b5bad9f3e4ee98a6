import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { StartupError } from '../bootstrap/startup-error';
import { processUser } from './startup-failure';

const reason = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === 'EACCES' || code === 'EPERM'
    ? 'permission denied'
    : code === 'EROFS'
      ? 'read-only file system'
      : code === 'ENOTDIR' || code === 'EEXIST'
        ? 'a file is in the way'
        : (code ?? String(error));
};

/**
 * Before SQLite opens DB_PATH: its folder exists (created when missing) and is writable (SQLite keeps the
 * -wal and -shm files next to the database), and the file, when it exists, is writable. Each problem is
 * one StartupError naming the path and the fix; SQLite itself would say only "unable to open database file".
 */
export function checkSqlitePath(path: string): void {
  if (path === ':memory:') return;
  const file = resolve(path);
  const folder = dirname(file);
  const user = processUser();
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new StartupError(
      `Cannot create the folder ${folder} for the SQLite database (DB_PATH=${path}): ${reason(error)}. Create it writable by user "${user}", or set DB_PATH to a writable location.`,
      { cause: error },
    );
  }
  if (!statSync(folder).isDirectory()) {
    throw new StartupError(
      `The folder of the SQLite database (DB_PATH=${path}), ${folder}, is not a folder. Set DB_PATH to a file in a writable folder.`,
    );
  }
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new StartupError(
      `The folder ${folder} of the SQLite database (DB_PATH=${path}) is read-only (${reason(error)}); SQLite writes its -wal and -shm files there. Make it writable by user "${user}" (e.g. chown ${user} ${folder}), or set DB_PATH to a writable location.`,
      { cause: error },
    );
  }
  if (!existsSync(file)) return;
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
  } catch (error) {
    throw new StartupError(
      `The SQLite database file ${file} (DB_PATH=${path}) is read-only (${reason(error)}). Make it writable by user "${user}" (e.g. chmod u+w ${file}; chown ${user} ${file}), or set DB_PATH to a writable copy.`,
      { cause: error },
    );
  }
}
