import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiException } from '../../common/http/api-errors';

interface Window {
  count: number;
  resetAt: number;
}

export interface RateLimit {
  max: number;
  windowMs: number;
}

/** Failed logins per account, and login or registration attempts per client address. */
export const LIMITS = {
  failuresPerAccount: { max: 10, windowMs: 15 * 60_000 },
  attemptsPerAddress: { max: 50, windowMs: 15 * 60_000 },
} as const;

const MAX_KEYS = 100_000;

export class TooManyRequestsException extends ApiException {
  constructor(readonly retryAfterSeconds: number) {
    super(HttpStatus.TOO_MANY_REQUESTS, `Too many attempts; try again in ${retryAfterSeconds} seconds`);
    this.headers = { 'retry-after': String(retryAfterSeconds) };
  }
}

/**
 * Fixed-window counters in memory (per instance: with several instances the effective limit is
 * multiplied by their number). Keys are bounded; the oldest are dropped first.
 */
@Injectable()
export class LoginRateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Throws 429 when the key is over its limit; does not count. */
  check(key: string, limit: RateLimit): void {
    const window = this.current(key);
    if (window && window.count >= limit.max) {
      throw new TooManyRequestsException(Math.max(1, Math.ceil((window.resetAt - this.now()) / 1000)));
    }
  }

  hit(key: string, limit: RateLimit): void {
    const window = this.current(key) ?? { count: 0, resetAt: this.now() + limit.windowMs };
    window.count += 1;
    this.windows.delete(key);
    this.windows.set(key, window);
    if (this.windows.size > MAX_KEYS) this.windows.delete(this.windows.keys().next().value as string);
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.resetAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }
}
