import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isValidMediaKey, MediaStorage, type StoredObject } from './media-storage';

/** Files under one directory (MEDIA_DIR). Writes go to a temporary name first, then are renamed into place. */
export class LocalMediaStorage extends MediaStorage {
  private readonly root: string;

  constructor(root: string) {
    super();
    this.root = resolve(root);
  }

  /** The absolute path of a key; throws for anything that is not a valid key or would leave the root. */
  pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (!isValidMediaKey(key) || !path.startsWith(this.root + sep)) throw new Error(`Invalid media key: ${key}`);
    return path;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.part`;
    try {
      await writeFile(temporary, data, { flag: 'wx' });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: { start: number; end?: number }): Promise<StoredObject | undefined> {
    const path = this.pathOf(key);
    let size: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      size = info.size;
    } catch {
      return undefined;
    }
    if (range && size > 0 && range.start < size) {
      const end = Math.min(range.end ?? size - 1, size - 1);
      return {
        body: createReadStream(path, { start: range.start, end }),
        length: end - range.start + 1,
        totalSize: size,
        range: { start: range.start, end },
      };
    }
    return { body: createReadStream(path), length: size, totalSize: size };
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const to = this.pathOf(toKey);
    await mkdir(dirname(to), { recursive: true });
    await copyFile(this.pathOf(fromKey), to);
  }

  /** Invalid keys are skipped (never written, so nothing to remove), and do not stop the others. */
  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.filter(isValidMediaKey).map((key) => rm(this.pathOf(key), { force: true })));
  }
}
