import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { launchTarget, shownPath } from './launch-target';
import { readDescriptor, type DescriptorKind } from './package-descriptors';
import {
  DEFAULT_LIMITS,
  PackageError,
  type PackageFile,
  type PackageLimits,
  type PackageReport,
} from './package-types';
import { checkFoldersAreNotFiles } from './zip-entry-names';
import { drain, walk } from './zip-walk';

export * from './package-types';
export { launchFile } from './launch-target';

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
