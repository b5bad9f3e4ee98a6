import { Transform, type Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import { PackageError, type PackageFile, type PackageLimits } from './package-types';
import { checkName } from './zip-entry-names';
import { checkCrc, classify, isWhole, openEntry, openZip, readWhole } from './zip-file';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

export interface Walk {
  /** Stops the walk with the signal's reason as soon as it is aborted. */
  signal?: AbortSignal;
  /** Entries read at once (inflated and handed to onFile); default 1. */
  parallel?: number;
  /** Entries this refuses are checked from their headers only (not inflated); default: every entry is read. */
  read?: (name: string) => boolean;
  /** Called for each file entry with its inflating stream (already checked and counted). */
  onFile?: (name: string, stream: Readable, entry: Entry) => Promise<void>;
  /**
   * When set, entries up to WHOLE_ENTRY bytes are read and inflated whole, counted, CRC-checked and handed
   * here instead of to onFile.
   */
  onData?: (name: string, data: Buffer, entry: Entry) => Promise<void>;
  onProgress?: (inflated: number) => void;
}

export const drain = (stream: Readable): Promise<void> =>
  new Promise((resolve, reject) => {
    stream.on('error', reject);
    stream.on('end', resolve);
    stream.resume();
  });

/**
 * One pass over the archive: every entry's name, flags and sizes are checked before it is read, and its
 * bytes are counted as they inflate (the total, and the ratio of entries past `bombMinBytes`), so a bomb
 * stops as soon as it shows, whatever its headers say.
 */
export async function walk(
  file: string,
  limits: PackageLimits,
  visit: Walk,
): Promise<{ files: PackageFile[]; inflated: number }> {
  const zip = await openZip(file);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new PackageError(
      'ZIP_TOO_MANY_ENTRIES',
      `The archive has ${zip.entryCount} entries (at most ${limits.maxEntries})`,
    );
  }
  const pass = new ZipPass(zip, limits, visit);
  try {
    await pass.run();
  } finally {
    if (zip.isOpen) zip.close();
  }
  return { files: pass.files, inflated: pass.inflated };
}

/** The state of one walk: entries are read one after another, up to `parallel` of them inflating at once. */
class ZipPass {
  readonly files: PackageFile[] = [];
  inflated = 0;
  private declaredTotal = 0;
  private readonly seen = new Set<string>();
  private readonly parallel: number;
  private settled = false;
  private ended = false;
  private wantsEntry = false;
  /** Entries being read, with a way to stop each, so that a failure can stop them all. */
  private readonly reading = new Map<Promise<void>, (reason: Error) => void>();
  private resolve!: () => void;
  private reject!: (reason: Error) => void;

  constructor(
    private readonly zip: ZipFile,
    private readonly limits: PackageLimits,
    private readonly visit: Walk,
  ) {
    this.parallel = Math.max(1, visit.parallel ?? 1);
  }

  run(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      this.zip.on('error', (error) => this.finish(error));
      this.zip.on('end', () => {
        this.ended = true;
        if (!this.reading.size) this.finish();
      });
      this.zip.on('entry', (entry: Entry) => {
        this.onEntry(entry).then(
          () => this.next(),
          (error) => this.finish(error),
        );
      });
      this.zip.readEntry();
    });
  }

  private finish(error?: unknown): void {
    if (this.settled) return;
    this.settled = true;
    if (error === undefined) return this.resolve();
    this.zip.close();
    const reason = classify(error);
    for (const stop of this.reading.values()) stop(reason);
    // Rejects once every entry under way has stopped (no file is written after the caller cleans up).
    void Promise.allSettled([...this.reading.keys()]).then(() => this.reject(reason));
  }

  private next(): void {
    if (this.settled) return;
    if (this.reading.size < this.parallel) this.zip.readEntry();
    else this.wantsEntry = true;
  }

  /** An entry under way; the next entry is read while it inflates and is written (up to `parallel` at once). */
  private track(task: Promise<void>, stop: (reason: Error) => void): void {
    this.reading.set(task, stop);
    task.then(
      () => {
        this.reading.delete(task);
        if (this.ended && !this.reading.size) this.finish();
        else if (this.wantsEntry) {
          this.wantsEntry = false;
          this.next();
        }
      },
      (error: unknown) => {
        this.reading.delete(task);
        this.finish(error);
      },
    );
  }

  private tooLarge(): PackageError {
    return new PackageError('ZIP_TOO_LARGE', `The archive inflates to more than ${this.limits.maxInflatedBytes} bytes`);
  }

  private async onEntry(entry: Entry): Promise<void> {
    const name = this.admit(entry);
    if (name === undefined) return;
    if (this.visit.read && !this.visit.read(name)) {
      this.files.push({ path: name, bytes: entry.uncompressedSize });
      return;
    }
    if (this.visit.onData && isWhole(entry)) return this.readWhole(name, entry);
    return this.readStream(name, entry);
  }

  /** The entry's name once its header passed every check; undefined for a folder. */
  private admit(entry: Entry): string | undefined {
    const { signal } = this.visit;
    if (signal?.aborted) throw signal.reason;
    const name = checkName(entry.fileName, this.limits);
    const key = name.replace(/\/+$/, '');
    if (this.seen.has(key)) {
      throw new PackageError('ZIP_UNSAFE_PATH', `Duplicate entry: ${entry.fileName} (the path of an earlier entry)`);
    }
    this.seen.add(key);
    const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
    if (mode === S_IFLNK) throw new PackageError('ZIP_UNSAFE_PATH', `Symbolic link: ${name}`);
    if (entry.isEncrypted()) throw new PackageError('ZIP_ENCRYPTED', `Encrypted entry: ${name}`);
    if (name === '' || name.endsWith('/')) return undefined;
    const declared = entry.uncompressedSize;
    const { limits } = this;
    if (declared > limits.bombMinBytes && declared > limits.maxRatio * Math.max(entry.compressedSize, 1)) {
      throw new PackageError('ZIP_BOMB', `${name} inflates more than ${limits.maxRatio} times its size`);
    }
    this.declaredTotal += declared;
    if (this.inflated + declared > limits.maxInflatedBytes || this.declaredTotal > limits.maxInflatedBytes) {
      throw this.tooLarge();
    }
    return name;
  }

  private readWhole(name: string, entry: Entry): void {
    let stopped: Error | undefined;
    const task = (async () => {
      const data = await readWhole(this.zip, entry);
      if (stopped) throw stopped;
      if (this.visit.signal?.aborted) throw this.visit.signal.reason;
      this.inflated += data.length;
      if (this.inflated > this.limits.maxInflatedBytes) throw this.tooLarge();
      checkCrc(entry, crc32(data), name);
      this.visit.onProgress?.(this.inflated);
      await this.visit.onData!(name, data, entry);
      this.files.push({ path: name, bytes: data.length });
    })();
    this.track(task, (reason) => (stopped = reason));
  }

  private async readStream(name: string, entry: Entry): Promise<void> {
    const stream = await openEntry(this.zip, entry);
    const counter = this.counter(name, entry);
    stream.on('error', (error) => counter.destroy(classify(error)));
    // Its reader reports its errors; this one keeps a stop after the reader is done from going unheard.
    counter.on('error', () => undefined);
    const counted = stream.pipe(counter);
    if (this.settled) {
      stream.destroy();
      counted.destroy();
      return;
    }
    const task = (async () => {
      if (this.visit.onFile) await this.visit.onFile(name, counted, entry);
      else await drain(counted);
      this.files.push({ path: name, bytes: counter.bytes });
    })();
    this.track(task, (reason) => {
      stream.destroy();
      counter.destroy(reason);
    });
  }

  /** Passes an entry's inflated bytes on, counting them against the limits and checking its CRC at the end. */
  private counter(name: string, entry: Entry): Transform & { bytes: number } {
    const { limits, visit } = this;
    let crc = 0;
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        if (visit.signal?.aborted) return done(visit.signal.reason as Error);
        counter.bytes += chunk.length;
        this.inflated += chunk.length;
        if (this.inflated > limits.maxInflatedBytes) return done(this.tooLarge());
        if (
          counter.bytes > limits.bombMinBytes &&
          counter.bytes > limits.maxRatio * Math.max(entry.compressedSize, 1)
        ) {
          return done(new PackageError('ZIP_BOMB', `${name} inflates more than ${limits.maxRatio} times its size`));
        }
        crc = crc32(chunk, crc);
        visit.onProgress?.(this.inflated);
        done(null, chunk);
      },
      flush: (done) => {
        try {
          checkCrc(entry, crc, name);
          done();
        } catch (error) {
          done(error as Error);
        }
      },
    }) as Transform & { bytes: number };
    counter.bytes = 0;
    return counter;
  }
}
