import type { Logger } from 'pino';
import type { CounterBackend } from './counter-backend';

export interface WindowCount {
  /** Events counted in the current window, this one included. */
  count: number;
  /** When the window ends (ms since the epoch). */
  resetAt: number;
}

interface BatchedEntry {
  window: number;
  resetAt: number;
  /** Counted here and not yet added to the shared store. */
  pending: number;
  /** The shared total (every instance) as of the last sync. */
  shared: number;
}

const MAX_LOCAL_KEYS = 100_000;
const PURGE_EVERY_MS = 60_000;

/**
 * Fixed-window counters shared by every instance. Windows are aligned to the epoch, so all instances
 * agree on them and the window's number is part of the stored key.
 *
 * Two ways of counting:
 * - `hit`/`peek` (logins, registrations): one atomic statement in the shared store per event, exact.
 * - `hitBatched` (the general API limit, on every request): counted in memory and merged into the shared
 *   store every `syncMs`, where each instance also learns the others' counts. Requests cost no SQL, and
 *   across instances the limit can be overshot by what the others counted since their last sync.
 *
 * A store that fails (database or Redis down) is logged and the request is let through: a limiter must not
 * take the API down with it.
 */
export class SharedCounters {
  private backend: CounterBackend | undefined;
  private readonly batched = new Map<string, BatchedEntry>();
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private lastPurge = 0;

  constructor(
    private readonly syncMs: number,
    private readonly logger?: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts sharing through `backend` (until then counts stay in this process). */
  attach(backend: CounterBackend): void {
    this.backend = backend;
    this.timer ??= setInterval(() => void this.sync(), this.syncMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sync();
    await this.backend?.close();
    this.backend = undefined;
  }

  private window(windowMs: number): { window: number; resetAt: number } {
    const window = Math.floor(this.now() / windowMs);
    return { window, resetAt: (window + 1) * windowMs };
  }

  private storedKey(key: string, window: number): string {
    return `${key}:${window}`;
  }

  hitBatched(key: string, windowMs: number): WindowCount {
    const { window, resetAt } = this.window(windowMs);
    let entry = this.batched.get(key);
    if (!entry || entry.window !== window) {
      if (!entry && this.batched.size >= MAX_LOCAL_KEYS) this.dropExpired(true);
      entry = { window, resetAt, pending: 0, shared: 0 };
      this.batched.set(key, entry);
    }
    entry.pending += 1;
    return { count: entry.shared + entry.pending, resetAt };
  }

  peekBatched(key: string, windowMs: number): WindowCount {
    const { window, resetAt } = this.window(windowMs);
    const entry = this.batched.get(key);
    return { count: entry && entry.window === window ? entry.shared + entry.pending : 0, resetAt };
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const { window, resetAt } = this.window(windowMs);
    if (!this.backend) return { count: 0, resetAt };
    try {
      return { count: await this.backend.add(this.storedKey(key, window), 1, resetAt), resetAt };
    } catch (error) {
      this.logger?.error({ err: error }, 'rate-limit store failed; request let through');
      return { count: 0, resetAt };
    }
  }

  async peek(key: string, windowMs: number): Promise<WindowCount> {
    const { window, resetAt } = this.window(windowMs);
    if (!this.backend) return { count: 0, resetAt };
    try {
      return { count: await this.backend.get(this.storedKey(key, window)), resetAt };
    } catch (error) {
      this.logger?.error({ err: error }, 'rate-limit store failed; request let through');
      return { count: 0, resetAt };
    }
  }

  /** Merges the batched counts into the shared store (also run by the timer). */
  sync(): Promise<void> {
    this.syncing ??= this.flush().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  private async flush(): Promise<void> {
    const backend = this.backend;
    if (!backend) return;
    for (const [key, entry] of this.batched) {
      if (entry.pending === 0) continue;
      const amount = entry.pending;
      entry.pending = 0;
      try {
        // The total includes every instance's synced counts; hits counted here meanwhile stay pending.
        entry.shared = await backend.add(this.storedKey(key, entry.window), amount, entry.resetAt);
      } catch (error) {
        entry.pending += amount;
        this.logger?.error({ err: error }, 'rate-limit store failed; counts kept for the next sync');
        break;
      }
    }
    this.dropExpired(false);
    if (this.now() - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = this.now();
      await backend.purge(this.now()).catch((error: unknown) => {
        this.logger?.warn({ err: error }, 'rate-limit counters could not be purged');
      });
    }
  }

  private dropExpired(evenPending: boolean): void {
    const now = this.now();
    for (const [key, entry] of this.batched) {
      if (entry.resetAt <= now && (evenPending || entry.pending === 0)) this.batched.delete(key);
    }
  }
}
