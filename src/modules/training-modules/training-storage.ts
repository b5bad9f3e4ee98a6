import { createReadStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';

/**
 * Where packages live under TRAINING_DIR: uploads and downloads while they are received
 * (`incoming/{importid}.zip`), a package being extracted (`modules/{moduleid}/.import-{importid}/`), and
 * each version's files (`modules/{moduleid}/{versionid}/`).
 */
export class TrainingStorage {
  readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  incoming(importid: number): string {
    return join(this.root, 'incoming', `${importid}.zip`);
  }

  staging(moduleid: number, importid: number): string {
    return join(this.root, 'modules', String(moduleid), `.import-${importid}`);
  }

  version(moduleid: number, versionid: number): string {
    return join(this.root, 'modules', String(moduleid), String(versionid));
  }

  async prepareIncoming(): Promise<void> {
    await mkdir(join(this.root, 'incoming'), { recursive: true });
  }

  /** Deletes what an import left behind (its received archive and its partial extraction). */
  async removePartial(moduleid: number, importid: number): Promise<void> {
    await rm(this.incoming(importid), { force: true });
    await rm(this.staging(moduleid, importid), { recursive: true, force: true });
  }

  /** Puts an extracted package in place of a version's files. */
  async install(moduleid: number, importid: number, versionid: number): Promise<void> {
    const target = this.version(moduleid, versionid);
    const old = `${target}.old-${importid}`;
    await rm(old, { recursive: true, force: true });
    await rename(target, old).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(this.staging(moduleid, importid), target);
    await rm(old, { recursive: true, force: true });
    await rm(this.incoming(importid), { force: true });
  }
}

/** SHA-256 (hex) of a file, streamed. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
