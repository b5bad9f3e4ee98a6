import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';

describe('SQLite durability (DB_SQLITE_SYNCHRONOUS)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rgcs-synchronous-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** `PRAGMA synchronous` (1 NORMAL, 2 FULL) on a file the first open creates, then on the same file reopened. */
  async function synchronousLevels(env: Record<string, string>): Promise<number[]> {
    const config = loadConfig({ ...env, DB_PATH: join(dir, 'app.sqlite') });
    const levels: number[] = [];
    for (let open = 0; open < 2; open++) {
      const dataSource = new DataSource(buildDataSourceOptions(config));
      await dataSource.initialize();
      try {
        const [row] = await dataSource.query<{ synchronous: number }[]>('PRAGMA synchronous');
        const [mode] = await dataSource.query<{ journal_mode: string }[]>('PRAGMA journal_mode');
        expect(mode.journal_mode).toBe('wal');
        levels.push(row.synchronous);
      } finally {
        await dataSource.destroy();
      }
    }
    return levels;
  }

  // Left to SQLite, a file created by this process ran FULL and the same file reopened in WAL mode NORMAL.
  it('is NORMAL by default, on a new file and on a reopened one', async () => {
    expect(await synchronousLevels({})).toEqual([1, 1]);
  });

  it('is FULL with DB_SQLITE_SYNCHRONOUS=full, on a new file and on a reopened one', async () => {
    expect(await synchronousLevels({ DB_SQLITE_SYNCHRONOUS: 'full' })).toEqual([2, 2]);
  });
});
