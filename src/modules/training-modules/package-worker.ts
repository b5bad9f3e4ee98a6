import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { PackageTask, WorkerAnswer } from './package-thread';
import { extractPackage, validatePackage } from './package-validator';

/** The worker side of package-thread.ts: one check or extraction, then the answer. */
const task = workerData as PackageTask;
// Background work: on Linux the nice value is per thread, so this lowers this thread only and leaves the CPU
// to the event loop that answers requests when the cores are busy.
try {
  setPriority(10);
} catch {
  // not permitted here: the work runs at the process's priority
}
const port = parentPort!;
const controller = new AbortController();
port.on('message', (message: { type?: string }) => {
  if (message?.type === 'abort') controller.abort(new Error('stopped'));
});

/** Progress is posted once per this many inflated bytes. */
const PROGRESS_STEP = 256 * 1024;
let posted = 0;
const onProgress = (inflated: number) => {
  if (inflated - posted < PROGRESS_STEP) return;
  posted = inflated;
  port.postMessage({ type: 'progress', inflated } satisfies WorkerAnswer);
};

const options = { limits: task.limits, signal: controller.signal, onProgress };
const work =
  task.kind === 'validate'
    ? validatePackage(task.file, { ...options, headersOnly: task.headersOnly })
    : extractPackage(task.file, task.dir!, options);

work.then(
  (result) => port.postMessage({ type: 'done', result } satisfies WorkerAnswer),
  (error: Error & { code?: unknown }) =>
    port.postMessage({
      type: 'failed',
      error: {
        name: error?.name ?? 'Error',
        code: typeof error?.code === 'string' ? error.code : undefined,
        message: error?.message ?? String(error),
      },
    } satisfies WorkerAnswer),
);
