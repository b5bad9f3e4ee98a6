/**
 * SQLite has one connection in this process. While a transaction is open on it, the gate lets only
 * that transaction's statements through; every other statement (another request's read or write)
 * waits until the transaction has committed or rolled back. Transactions take the gate in arrival
 * order.
 */
export class SqliteGate {
  private owner: symbol | undefined;
  private readonly acquirers: { token: symbol; resolve: () => void }[] = [];
  private idleWaiters: (() => void)[] = [];

  /** True when a statement of `token` (or of no transaction) may run now. */
  admits(token: symbol | undefined): boolean {
    return this.owner === undefined || this.owner === token;
  }

  get held(): boolean {
    return this.owner !== undefined;
  }

  /** Resolves when no transaction holds the gate. */
  whenFree(): Promise<void> {
    if (this.owner === undefined) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  acquire(token: symbol): Promise<void> {
    if (this.owner === undefined && this.acquirers.length === 0) {
      this.owner = token;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.acquirers.push({ token, resolve }));
  }

  /** Transactions waiting to take the gate. */
  get queued(): number {
    return this.acquirers.length;
  }

  /**
   * Hands the gate from `token` straight to the next waiting transaction, ahead of the statements waiting
   * for a free gate (group commit: they must not run before the open transaction commits). False, and
   * nothing changes, when no transaction waits.
   */
  passOn(token: symbol): boolean {
    if (this.owner !== token) throw new Error('SQLite gate passed on by a transaction that does not hold it');
    const next = this.acquirers.shift();
    if (!next) return false;
    this.owner = next.token;
    next.resolve();
    return true;
  }

  release(token: symbol): void {
    if (this.owner !== token) throw new Error('SQLite gate released by a transaction that does not hold it');
    this.owner = undefined;
    // Statements that waited run first (each is synchronous), then the next transaction begins.
    const waiting = this.idleWaiters;
    this.idleWaiters = [];
    waiting.forEach((resolve) => resolve());
    if (this.acquirers.length) setImmediate(() => this.handOver());
  }

  private handOver(): void {
    if (this.owner !== undefined) return;
    const next = this.acquirers.shift();
    if (!next) return;
    this.owner = next.token;
    next.resolve();
  }
}
