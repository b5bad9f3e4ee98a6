import { Injectable } from '@nestjs/common';

/**
 * The only source of time for platform and enterprise code (docs/enterprise/overview.md): tests replace it with a
 * FakeClock, so due dates, windows, expiries and lockouts are tested to the second without waiting.
 */
export abstract class Clock {
  /** Milliseconds since the epoch. */
  abstract now(): number;

  /** Whole UNIX seconds, the API's timestamp unit. */
  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }
}

@Injectable()
export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
}

/** A clock that moves only when told to. */
export class FakeClock extends Clock {
  constructor(private current = Date.UTC(2026, 0, 1)) {
    super();
  }

  now(): number {
    return this.current;
  }

  set(ms: number | Date): void {
    this.current = typeof ms === 'number' ? ms : ms.getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
