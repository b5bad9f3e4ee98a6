import { close, createWriteStream, fstat, open, read } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, inflateRaw } from 'node:zlib';
import yauzl, { RandomAccessReader, type Entry, type ZipFile } from 'yauzl';
import { launchTarget, shownPath } from './launch-target';
import { readDescriptor, type DescriptorKind } from './package-descriptors';
import {
  DEFAULT_LIMITS,
  PackageError,
  type PackageFile,
  type PackageLimits,
  type PackageReport,
} from './package-types';

export * from './package-types';
export { launchFile } from './launch-target';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Reads of entry data in this size (yauzl's own file reader reads 16 KiB at a time: 4 syscalls per 64 KiB). */
const READ_CHUNK = 1024 * 1024;
const WINDOW = 64 * 1024;

/** Bytes [start, end) of an open file; the file stays open (the reader closes it once yauzl is done). */
class RangeStream extends Readable {
  constructor(
    private readonly fd: number,
    private position: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: READ_CHUNK });
  }

  override _read(): void {
    const length = Math.min(READ_CHUNK, this.end - this.position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafe(length);
    read(this.fd, buffer, 0, length, this.position, (error, bytes) => {
      if (error) return this.destroy(error);
      if (bytes === 0) return this.destroy(new Error('unexpected end of file'));
      this.position += bytes;
      this.push(bytes < length ? buffer.subarray(0, bytes) : buffer);
    });
  }
}

/** The archive file for yauzl, as its own reader does, but with large reads of entry data. */
class FileReader extends RandomAccessReader {
  /**
   * The last two 64 KiB windows that small reads were served from: yauzl reads the central directory one
   * small record at a time (two reads per entry), alternating with the local header of the entry it opens.
   */
  private windows: { start: number; data: Buffer }[] = [];

  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return new RangeStream(this.fd, start, end);
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null) => void,
  ): void {
    const copy = (window: { start: number; data: Buffer }) =>
      window.data.copy(buffer, offset, position - window.start, position - window.start + length);
    const hit = this.windows.find((w) => position >= w.start && position + length <= w.start + w.data.length);
    if (hit) {
      copy(hit);
      process.nextTick(callback, null);
      return;
    }
    if (length >= WINDOW || position + length > this.size) {
      this.readFully(buffer, offset, length, position, callback);
      return;
    }
    const window = { start: position, data: Buffer.allocUnsafe(Math.min(WINDOW, this.size - position)) };
    this.readFully(window.data, 0, window.data.length, position, (error) => {
      if (error) return callback(error);
      this.windows = [window, ...this.windows.slice(0, 1)];
      copy(window);
      callback(null);
    });
  }

  private readFully(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null) => void,
  ): void {
    const next = (done: number): void => {
      if (done >= length) return callback(null);
      read(this.fd, buffer, offset + done, length - done, position + done, (error, bytes) => {
        if (error) return callback(error);
        if (bytes === 0) return callback(new Error('unexpected end of file'));
        next(done + bytes);
      });
    };
    next(0);
  }

  override close(callback: (err: Error | null) => void): void {
    close(this.fd, callback);
  }
}

const openZip = (file: string): Promise<ZipFile> =>
  new Promise((resolve, reject) => {
    const notZip = (error: Error) =>
      reject(new PackageError('NOT_A_ZIP', `The data is not a ZIP archive (${error.message})`));
    open(file, 'r', (error, fd) => {
      if (error) return notZip(error);
      fstat(fd, (statError, stats) => {
        if (statError) return close(fd, () => notZip(statError));
        yauzl.fromRandomAccessReader(
          new FileReader(fd, stats.size),
          stats.size,
          { lazyEntries: true, validateEntrySizes: true, decodeStrings: true, strictFileNames: false, autoClose: true },
          (zipError, zip) => (zipError ? close(fd, () => notZip(zipError)) : resolve(zip)),
        );
      });
    });
  });

const openEntry = (zip: ZipFile, entry: Entry): Promise<Readable> =>
  new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(classify(error)) : resolve(stream))),
  );

/** Entries up to this size (inflated and stored) are read and inflated whole: one read, one inflate call. */
const WHOLE_ENTRY = 1024 * 1024;

const isWhole = (entry: Entry) => entry.uncompressedSize <= WHOLE_ENTRY && entry.compressedSize <= 2 * WHOLE_ENTRY;

/**
 * A small entry's bytes, inflated in one call on the thread pool instead of a stream of 16 KiB chunks (each
 * a round trip), and held to its declared size as yauzl's `validateEntrySizes` holds streams: more bytes than
 * declared stop the inflater at once. Same messages as yauzl's, so `classify` gives the same codes.
 */
async function readWhole(zip: ZipFile, entry: Entry): Promise<Buffer> {
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw new Error(`unsupported compression method: ${entry.compressionMethod}`);
  }
  const raw = await new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, { decodeFileData: false }, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of raw as AsyncIterable<Buffer>) chunks.push(chunk);
  const stored = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  const declared = entry.uncompressedSize;
  const data =
    entry.compressionMethod === 0
      ? stored
      : await new Promise<Buffer>((resolve, reject) =>
          inflateRaw(
            stored,
            // One output chunk holds the whole entry; one byte more than declared shows a lying header.
            { chunkSize: Math.max(64, declared + 1), maxOutputLength: declared + 1 },
            (error, out) => (error ? reject(error) : resolve(out)),
          ),
        ).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ERR_BUFFER_TOO_LARGE') {
            throw new Error(`too many bytes in the stream. expected ${declared}. got at least ${declared + 1}`);
          }
          throw error;
        });
  if (data.length > declared) {
    throw new Error(`too many bytes in the stream. expected ${declared}. got at least ${data.length}`);
  }
  if (data.length < declared)
    throw new Error(`not enough bytes in the stream. expected ${declared}. got only ${data.length}`);
  return data;
}

/** The CRC-32 its header declares, as `unzip -t` checks it (yauzl does not). */
function checkCrc(entry: Entry, actual: number, name: string): void {
  if (actual >>> 0 !== entry.crc32 >>> 0) throw new Error(`bad CRC-32 in ${name}`);
}

/** yauzl's own name checks (`..`, absolute paths, backslashes) and format errors, as failure codes. */
function classify(error: unknown): Error {
  // PackageErrors and the caller's own reasons (a cancelled import) pass through; yauzl throws plain Errors.
  if (error instanceof Error && error.constructor !== Error) return error;
  const message = (error as Error)?.message ?? String(error);
  const code = (error as NodeJS.ErrnoException)?.syscall ? (error as NodeJS.ErrnoException).code : undefined;
  // Two entries that land on one path on disk (the names checks should have caught it).
  if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') {
    return new PackageError('ZIP_UNSAFE_PATH', `Two entries land on the same path: ${message}`);
  }
  // The disk's own failures (ENOSPC, EACCES, …) are not the package's.
  if (code) return error as Error;
  if (/relative path|absolute path|invalid characters/i.test(message)) {
    return new PackageError('ZIP_UNSAFE_PATH', `Unsafe entry name: ${message}`);
  }
  if (/encrypt/i.test(message)) return new PackageError('ZIP_ENCRYPTED', message);
  if (/too many bytes|too few bytes/i.test(message)) {
    return new PackageError('ZIP_BOMB', `An entry's size does not match its header: ${message}`);
  }
  return new PackageError('NOT_A_ZIP', `The ZIP archive is damaged: ${message}`);
}

/**
 * Refuses names that are unsafe to write under a folder (on top of yauzl's checks), and answers the name as it
 * lands on disk: `.` segments and doubled slashes dropped (`./index.html` is `index.html`); a folder keeps
 * its trailing slash, and the root folder (`./`) is ''.
 */
function checkName(raw: string, limits: PackageLimits): string {
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
function checkFoldersAreNotFiles(files: PackageFile[]): void {
  const keys = files.map((f) => f.path.replace(/\//g, '\0')).sort();
  for (let i = 1; i < keys.length; i += 1) {
    if (keys[i].startsWith(`${keys[i - 1]}\0`)) {
      const name = keys[i - 1].replace(/\0/g, '/');
      throw new PackageError('ZIP_UNSAFE_PATH', `${name} is both a file and a folder`);
    }
  }
}

interface Walk {
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

/**
 * One pass over the archive: every entry's name, flags and sizes are checked before it is read, and its
 * bytes are counted as they inflate (the total, and the ratio of entries past `bombMinBytes`), so a bomb
 * stops as soon as it shows, whatever its headers say.
 */
async function walk(
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
  const seen = new Set<string>();
  const files: PackageFile[] = [];
  let inflated = 0;
  let declaredTotal = 0;
  const tooLarge = () =>
    new PackageError('ZIP_TOO_LARGE', `The archive inflates to more than ${limits.maxInflatedBytes} bytes`);
  const parallel = Math.max(1, visit.parallel ?? 1);
  try {
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      let ended = false;
      let wantsEntry = false;
      /** Entries being read (at most `parallel`), with their counted streams, so a failure can stop them. */
      const reading = new Map<Promise<void>, (reason: Error) => void>();
      const finish = (error?: unknown) => {
        if (settled) return;
        settled = true;
        if (error === undefined) return resolve();
        zip.close();
        const reason = classify(error);
        for (const stop of reading.values()) stop(reason);
        // Rejects once every entry under way has stopped (no file is written after the caller cleans up).
        void Promise.allSettled([...reading.keys()]).then(() => reject(reason));
      };
      const next = () => {
        if (settled) return;
        if (reading.size < parallel) zip.readEntry();
        else wantsEntry = true;
      };
      /** An entry under way; the next entry is read while it inflates and is written (up to `parallel` at once). */
      const track = (task: Promise<void>, stop: (reason: Error) => void) => {
        reading.set(task, stop);
        task.then(
          () => {
            reading.delete(task);
            if (ended && !reading.size) finish();
            else if (wantsEntry) {
              wantsEntry = false;
              next();
            }
          },
          (error: unknown) => {
            reading.delete(task);
            finish(error);
          },
        );
      };
      zip.on('error', finish);
      zip.on('end', () => {
        ended = true;
        if (!reading.size) finish();
      });
      zip.on('entry', (entry: Entry) => {
        void (async () => {
          if (visit.signal?.aborted) throw visit.signal.reason;
          const name = checkName(entry.fileName, limits);
          const key = name.replace(/\/+$/, '');
          if (seen.has(key)) {
            throw new PackageError(
              'ZIP_UNSAFE_PATH',
              `Duplicate entry: ${entry.fileName} (the path of an earlier entry)`,
            );
          }
          seen.add(key);
          const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
          if (mode === S_IFLNK) throw new PackageError('ZIP_UNSAFE_PATH', `Symbolic link: ${name}`);
          if (entry.isEncrypted()) throw new PackageError('ZIP_ENCRYPTED', `Encrypted entry: ${name}`);
          if (name === '' || name.endsWith('/')) return;
          const declared = entry.uncompressedSize;
          if (declared > limits.bombMinBytes && declared > limits.maxRatio * Math.max(entry.compressedSize, 1)) {
            throw new PackageError('ZIP_BOMB', `${name} inflates more than ${limits.maxRatio} times its size`);
          }
          if (inflated + declared > limits.maxInflatedBytes || (declaredTotal += declared) > limits.maxInflatedBytes) {
            throw tooLarge();
          }
          if (visit.read && !visit.read(name)) {
            files.push({ path: name, bytes: declared });
            return;
          }
          if (visit.onData && isWhole(entry)) {
            let stopped: Error | undefined;
            const task = (async () => {
              const data = await readWhole(zip, entry);
              if (stopped) throw stopped;
              if (visit.signal?.aborted) throw visit.signal.reason;
              inflated += data.length;
              if (inflated > limits.maxInflatedBytes) {
                throw tooLarge();
              }
              checkCrc(entry, crc32(data), name);
              visit.onProgress?.(inflated);
              await visit.onData!(name, data, entry);
              files.push({ path: name, bytes: data.length });
            })();
            track(task, (reason) => (stopped = reason));
            return;
          }
          const stream = await openEntry(zip, entry);
          let own = 0;
          let crc = 0;
          const counter = new Transform({
            transform(chunk: Buffer, _encoding, done) {
              if (visit.signal?.aborted) return done(visit.signal.reason as Error);
              own += chunk.length;
              inflated += chunk.length;
              if (inflated > limits.maxInflatedBytes) {
                return done(tooLarge());
              }
              if (own > limits.bombMinBytes && own > limits.maxRatio * Math.max(entry.compressedSize, 1)) {
                return done(
                  new PackageError('ZIP_BOMB', `${name} inflates more than ${limits.maxRatio} times its size`),
                );
              }
              crc = crc32(chunk, crc);
              visit.onProgress?.(inflated);
              done(null, chunk);
            },
            flush(done) {
              try {
                checkCrc(entry, crc, name);
                done();
              } catch (error) {
                done(error as Error);
              }
            },
          });
          stream.on('error', (error) => counter.destroy(classify(error)));
          // Its reader reports its errors; this one keeps a stop after the reader is done from going unheard.
          counter.on('error', () => undefined);
          const counted = stream.pipe(counter);
          if (settled) {
            stream.destroy();
            counted.destroy();
            return;
          }
          const task = (async () => {
            if (visit.onFile) await visit.onFile(name, counted, entry);
            else await drain(counted);
            files.push({ path: name, bytes: own });
          })();
          track(task, (reason) => {
            stream.destroy();
            counter.destroy(reason);
          });
        })().then(next, finish);
      });
      zip.readEntry();
    });
  } finally {
    if (zip.isOpen) zip.close();
  }
  return { files, inflated };
}

const drain = (stream: Readable): Promise<void> =>
  new Promise((resolve, reject) => {
    stream.on('error', reject);
    stream.on('end', resolve);
    stream.resume();
  });

async function collect(stream: Readable, max: number, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      stream.destroy();
      throw new PackageError('MANIFEST_INVALID', `${name} is larger than ${max} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const DESCRIPTORS: [file: string, kind: DescriptorKind][] = [
  ['cmi5.xml', 'cmi5'],
  ['imsmanifest.xml', 'scorm'],
  ['tincan.xml', 'xapi'],
];

export interface PackageOptions {
  limits?: Partial<PackageLimits>;
  /**
   * Inflate only the descriptors (the import's `validating` stage): the other entries are checked from their
   * headers, and their bytes are counted and checked as they inflate in extractPackage, which applies the
   * same limits. Default: every entry is inflated and counted here.
   */
  headersOnly?: boolean;
  onProgress?: (inflated: number) => void;
  signal?: AbortSignal;
}

/**
 * Checks a package without writing anything: the archive, its descriptor and the launch file. Throws a
 * PackageError with the failure code; warnings are in the report. Runs on the calling thread: the import
 * runs it in a worker (package-thread.ts).
 */
export async function validatePackage(file: string, options: PackageOptions = {}): Promise<PackageReport> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const descriptors = new Map<string, Buffer>();
  const isDescriptor = (name: string) => DESCRIPTORS.some(([d]) => d === name.toLowerCase());
  const { files, inflated } = await walk(file, limits, {
    onProgress: options.onProgress,
    signal: options.signal,
    read: options.headersOnly ? isDescriptor : undefined,
    onFile: async (name, stream) => {
      const lower = name.toLowerCase();
      if (DESCRIPTORS.some(([d]) => d === lower))
        descriptors.set(lower, await collect(stream, limits.maxDescriptorBytes, name));
      else await drain(stream);
    },
  });
  checkFoldersAreNotFiles(files);
  const found = DESCRIPTORS.find(([d]) => descriptors.has(d));
  if (!found) {
    const nested = files.find((f) => DESCRIPTORS.some(([d]) => f.path.toLowerCase().endsWith(`/${d}`)));
    if (nested)
      throw new PackageError('MANIFEST_NOT_AT_ROOT', `The descriptor ${nested.path} is not at the root of the package`);
    if (files.some((f) => f.path.toLowerCase().endsWith('.cst'))) {
      throw new PackageError('UNSUPPORTED_STANDARD', 'AICC packages (*.cst) are not supported');
    }
    throw new PackageError('NO_MANIFEST', 'The package has no cmi5.xml, imsmanifest.xml or tincan.xml at its root');
  }
  const [descriptorName, kind] = found;
  const xml = descriptors.get(descriptorName)!.toString('utf8');
  const read = readDescriptor(kind, xml, descriptorName, limits);
  const target = launchTarget(read.manifest.standard, read.manifest.launch_path);
  if (target?.kind !== 'external' && !(target && files.some((f) => f.path === target.file))) {
    throw new PackageError(
      'LAUNCH_FILE_MISSING',
      `The launch file ${shownPath(read.manifest.launch_path)} is not in the package`,
    );
  }
  const inflatedBytes = options.headersOnly ? files.reduce((sum, f) => sum + f.bytes, 0) : inflated;
  return { ...read, files, inflatedBytes };
}

/** Writes every file of a checked package under `dir`, counting as it goes (the same limits apply). */
export async function extractPackage(file: string, dir: string, options: PackageOptions = {}): Promise<PackageFile[]> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const made = new Set<string>();
  /** The entry's path under `dir`, its folder created once. */
  const prepare = async (name: string): Promise<string> => {
    const target = join(dir, ...name.split('/'));
    if (!target.startsWith(join(dir) + '/')) throw new PackageError('ZIP_UNSAFE_PATH', `Unsafe entry name: ${name}`);
    const folder = dirname(target);
    if (!made.has(folder)) {
      await mkdir(folder, { recursive: true });
      made.add(folder);
    }
    return target;
  };
  const { files } = await walk(file, limits, {
    onProgress: options.onProgress,
    signal: options.signal,
    parallel: EXTRACT_PARALLEL,
    onFile: async (name, stream) => {
      await pipeline(stream, createWriteStream(await prepare(name), { flags: 'wx' }));
    },
    // Small files are inflated whole and written at once (one open, write and close).
    onData: async (name, data) => writeFile(await prepare(name), data, { flag: 'wx' }),
  });
  return files;
}

/**
 * Entries extracted at once: each one waits on the disk and the inflater's threads in turn (read, inflate,
 * open, write, close), so a few in flight keep them busy. At most this many whole entries are held in memory.
 */
const EXTRACT_PARALLEL = 4;
