/**
 * Remembers keys for a time window, bounded in size: `firstIn(key, now)` is true the first time a key is
 * seen within the window (e.g. count one view per user and document per minute).
 */
export class RecentlySeen {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  firstIn(key: string, now: number): boolean {
    const last = this.seen.get(key);
    if (last !== undefined && now - last < this.windowMs) return false;
    if (this.seen.size >= this.maxKeys) this.prune(now);
    this.seen.delete(key);
    this.seen.set(key, now);
    return true;
  }

  private prune(now: number): void {
    for (const [key, at] of this.seen) if (now - at >= this.windowMs) this.seen.delete(key);
    // Still full: drop the oldest half (Map keeps insertion order, and keys are re-inserted on use).
    if (this.seen.size >= this.maxKeys)
      [...this.seen.keys()].slice(0, this.maxKeys / 2).forEach((key) => this.seen.delete(key));
  }
}
