/**
 * Where rate-limit counts live, shared by every instance of the service: the database (default) or Redis.
 * Keys name one fixed window (its number is part of the key), so a counter never needs resetting.
 */
export interface CounterBackend {
  /** Adds `amount` to the key's counter (created at 0, expiring at `expiresAt` ms) and returns the new total. */
  add(key: string, amount: number, expiresAt: number): Promise<number>;
  /** The key's current total (0 when absent). */
  get(key: string): Promise<number>;
  /** Drops counters whose window ended before `now` (ms); Redis expires keys itself. */
  purge(now: number): Promise<void>;
  close(): Promise<void>;
}
