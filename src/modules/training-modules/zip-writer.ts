import { ZipFile } from 'yazl';

export interface ZipEntrySpec {
  name: string;
  data: string | Buffer;
  /** Unix mode bits (e.g. 0o120777 for a symbolic link). */
  mode?: number;
  /** Store without compression. */
  store?: boolean;
}

/** A small ZIP archive built in memory with yazl (the demo package and tests; packages are never built this way). */
export function zipBuffer(entries: ZipEntrySpec[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) {
    if (entry.name.endsWith('/')) {
      zip.addEmptyDirectory(entry.name, { mtime: new Date(0) });
      continue;
    }
    zip.addBuffer(Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data), entry.name, {
      mtime: new Date(0),
      ...(entry.mode !== undefined ? { mode: entry.mode } : {}),
      compress: !entry.store,
    });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
