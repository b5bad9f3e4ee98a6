import type { MediaStorage } from './media-storage';

/**
 * Files written for one database change: written (or copied) first, removed again when the change
 * fails, so nothing is left half-written whichever step fails.
 */
export class StoredFiles {
  private readonly written: string[] = [];

  constructor(private readonly storage: MediaStorage) {}

  async putAll(files: { key: string; data: Buffer; contentType: string }[]): Promise<void> {
    await this.guard(files.map((file) => [file.key, () => this.storage.put(file.key, file.data, file.contentType)]));
  }

  async copyAll(pairs: { from: string; to: string }[]): Promise<void> {
    await this.guard(pairs.map((pair) => [pair.to, () => this.storage.copy(pair.from, pair.to)]));
  }

  /** Runs the database change; on failure removes every file written so far and rethrows. */
  async commitWith<T>(change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } catch (error) {
      await this.rollback();
      throw error;
    }
  }

  async rollback(): Promise<void> {
    const keys = this.written.splice(0);
    if (keys.length) await this.storage.delete(keys).catch(() => undefined);
  }

  /** Every target is remembered before it is attempted, so a partly written one is removed too. */
  private async guard(tasks: [key: string, write: () => Promise<void>][]): Promise<void> {
    this.written.push(...tasks.map(([key]) => key));
    const results = await Promise.allSettled(tasks.map(([, write]) => write()));
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) {
      await this.rollback();
      throw failure.reason;
    }
  }
}
