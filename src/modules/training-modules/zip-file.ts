import { close, fstat, open, read } from 'node:fs';
import { Readable } from 'node:stream';
import { inflateRaw } from 'node:zlib';
import yauzl, { RandomAccessReader, type Entry, type ZipFile } from 'yauzl';
import { PackageError } from './package-types';

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

export const openZip = (file: string): Promise<ZipFile> =>
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

export const openEntry = (zip: ZipFile, entry: Entry): Promise<Readable> =>
  new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(classify(error)) : resolve(stream))),
  );

/** Entries up to this size (inflated and stored) are read and inflated whole: one read, one inflate call. */
const WHOLE_ENTRY = 1024 * 1024;

export const isWhole = (entry: Entry) =>
  entry.uncompressedSize <= WHOLE_ENTRY && entry.compressedSize <= 2 * WHOLE_ENTRY;

/**
 * A small entry's bytes, inflated in one call on the thread pool instead of a stream of 16 KiB chunks (each
 * a round trip), and held to its declared size as yauzl's `validateEntrySizes` holds streams: more bytes than
 * declared stop the inflater at once. Same messages as yauzl's, so `classify` gives the same codes.
 */
export async function readWhole(zip: ZipFile, entry: Entry): Promise<Buffer> {
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
export function checkCrc(entry: Entry, actual: number, name: string): void {
  if (actual >>> 0 !== entry.crc32 >>> 0) throw new Error(`bad CRC-32 in ${name}`);
}

/** yauzl's own name checks (`..`, absolute paths, backslashes) and format errors, as failure codes. */
export function classify(error: unknown): Error {
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
