/** Progress is written at most once per this many milliseconds. */
const PROGRESS_INTERVAL_MS = 250;

/**
 * Progress writes one at a time, each with the latest values, at most one per PROGRESS_INTERVAL_MS: a write
 * asked for meanwhile replaces any waiting one (the import's work does not wait on the database, and a
 * slow database gets fewer writes, never a growing queue). `flush` writes the last values at once and
 * throws the first failure.
 */
export function coalesced<T>(write: (values: T) => Promise<void>): {
  push: (values: T) => void;
  flush: () => Promise<void>;
} {
  let waiting: { values: T } | undefined;
  let running: Promise<void> | undefined;
  let failure: Error | undefined;
  let flushing = false;
  let wake: (() => void) | undefined;
  const pump = async () => {
    while (waiting) {
      const { values } = waiting;
      waiting = undefined;
      const started = Date.now();
      await write(values);
      const rest = PROGRESS_INTERVAL_MS - (Date.now() - started);
      if (rest > 0 && !flushing) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, rest);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    }
  };
  return {
    push(values) {
      waiting = { values };
      if (running || failure !== undefined) return;
      running = pump()
        .catch((error: unknown) => {
          failure ??= error instanceof Error ? error : new Error(String(error));
        })
        .finally(() => {
          running = undefined;
        });
    },
    async flush() {
      flushing = true;
      wake?.();
      while (running) await running;
      if (failure !== undefined) throw failure;
    },
  };
}
