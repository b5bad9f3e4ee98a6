import { join } from 'node:path';
import { startWorker } from '../../common/threads/start-worker';
import {
  PackageError,
  type PackageFailureCode,
  type PackageFile,
  type PackageLimits,
  type PackageReport,
} from './package-types';

export interface PackageTask {
  kind: 'validate' | 'extract';
  file: string;
  /** Where `extract` writes. */
  dir?: string;
  headersOnly?: boolean;
  limits?: Partial<PackageLimits>;
}

export type WorkerAnswer =
  | { type: 'progress'; inflated: number }
  | { type: 'done'; result: unknown }
  | { type: 'failed'; error: { name: string; code?: string; message: string } };

export interface ThreadOptions {
  headersOnly?: boolean;
  limits?: Partial<PackageLimits>;
  /** Stops the work: the promise rejects with the signal's reason once the worker has stopped writing. */
  signal?: AbortSignal;
  onProgress?: (inflated: number) => void;
}

/** A worker that does not stop within this time after an abort is terminated. */
const STOP_GRACE_MS = 10_000;

/**
 * validatePackage in a worker thread: reading the archive's directory and parsing a descriptor (up to 5 MiB of
 * XML) take CPU time that grows with the package, and must not hold the event loop that answers requests.
 */
export function validateOffThread(file: string, options: ThreadOptions = {}): Promise<PackageReport> {
  return run({ kind: 'validate', file, headersOnly: options.headersOnly, limits: options.limits }, options);
}

/** extractPackage in a worker thread. */
export function extractOffThread(file: string, dir: string, options: ThreadOptions = {}): Promise<PackageFile[]> {
  return run({ kind: 'extract', file, dir, limits: options.limits }, options);
}

function run<T>(task: PackageTask, options: ThreadOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const { signal } = options;
    const stopped = () => signal!.reason as Error;
    // Its own heap limit: a descriptor that takes more memory fails this import, not the service.
    const worker = startWorker(join(__dirname, 'package-worker'), {
      workerData: task,
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
    });
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(grace);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      done();
    };
    const onAbort = () => {
      worker.postMessage({ type: 'abort' });
      grace = setTimeout(() => settle(() => reject(stopped())), STOP_GRACE_MS);
      grace.unref();
    };
    worker.on('message', (answer: WorkerAnswer) => {
      if (answer.type === 'progress') options.onProgress?.(answer.inflated);
      else if (answer.type === 'done') settle(() => resolve(answer.result as T));
      else settle(() => reject(signal?.aborted ? stopped() : revive(answer.error)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`The package worker stopped (exit code ${code})`))));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function revive(error: { name: string; code?: string; message: string }): Error {
  if (error.name === 'PackageError' && error.code)
    return new PackageError(error.code as PackageFailureCode, error.message);
  return new Error(error.message);
}
