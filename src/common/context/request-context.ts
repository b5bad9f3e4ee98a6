import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user';

/** The transaction a piece of work runs in; statements of other work never run inside it. */
export interface ActiveTransaction {
  readonly manager: EntityManager;
  /** Identifies the transaction to the SQLite connection gate. */
  readonly token: symbol;
  /** Runs after the outermost transaction commits (never after a rollback). */
  afterCommit(task: () => void | Promise<void>): void;
  /**
   * Runs inside the transaction once its work is done, before the outbox is written and COMMIT (writes that
   * are cheaper batched, such as the audit rows of a change). A task may add further tasks.
   */
  beforeCommit(task: () => Promise<void>): void;
}

/**
 * One context per request (or per background task): who acts, which request, from where, and the open
 * transaction. Services read it instead of taking `caller` and an optional `tx` separately; audit rows
 * and events carry its request id.
 */
export interface RequestContext {
  readonly requestId: string;
  /** Set by the access guard once the token is verified. */
  actor?: AuthenticatedUser;
  readonly ip?: string;
  readonly userAgent?: string;
  /**
   * Reads go to the primary, never a replica: set for every request that may write (any method but
   * GET/HEAD/OPTIONS) and for background work, so that a write's answer is read where it was written.
   */
  readonly primary: boolean;
  /**
   * Reads see every commit, including one still being completed: on SQLite they run on the main connection once
   * no transaction is open there (the reading connection does not see a group commit still in progress).
   */
  readonly latest?: boolean;
  /**
   * Shared by the request and the transactions inside it. `commits`: transactions of this work that
   * committed, so that a failure after them can tell the client its change was saved. `sqlRoundTrips` (MySQL):
   * queries sent, fewer than statements when statements of a transaction travel together (database/drivers/mysql/transaction-batch.ts).
   */
  readonly stats: { sqlStatements: number; commits?: number; sqlRoundTrips?: number };
  readonly tx?: ActiveTransaction;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  run<T>(context: RequestContext, fn: () => T): T {
    return storage.run(context, fn);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
  /** Runs `fn` with `tx` as the open transaction of the current context. */
  withTransaction<T>(tx: ActiveTransaction, fn: () => T): T {
    const parent = storage.getStore() ?? backgroundContext('transaction');
    return storage.run({ ...parent, tx, primary: true }, fn);
  },
  /** Runs `fn` with its reads on the primary (see RequestContext.primary). */
  onPrimary<T>(fn: () => T): T {
    const parent = storage.getStore();
    return !parent || parent.primary ? fn() : storage.run({ ...parent, primary: true }, fn);
  },
  /** Runs `fn` outside any transaction, its reads on the primary and seeing every commit (see RequestContext.latest). */
  readingLatest<T>(fn: () => T): T {
    const { tx: _tx, ...rest } = storage.getStore() ?? backgroundContext('latest');
    return storage.run({ ...rest, primary: true, latest: true }, fn);
  },
  /** Runs `fn` outside any transaction of the current context (e.g. work queued for after commit). */
  outsideTransaction<T>(fn: () => T): T {
    const parent = storage.getStore();
    if (!parent?.tx) return fn();
    const { tx: _tx, ...rest } = parent;
    return storage.run(rest, fn);
  },
};

/** A context for work no request started (jobs, event delivery, start-up tasks). */
export function backgroundContext(name: string, actor?: AuthenticatedUser): RequestContext {
  return { requestId: `${name}:${randomUUID()}`, actor, primary: true, stats: { sqlStatements: 0 } };
}
