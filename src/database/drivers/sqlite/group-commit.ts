import { DatabaseUnavailableError } from '../../errors';
import type { SqliteGate } from './gate';
import type { RunStatement, SqliteConnection, SqliteRunner, SqliteTransactions } from './types';

/** Transactions that one COMMIT ends at most: the first of a group waits for the others' work. */
const GROUP_MAX = 8;

const unavailable = (message: string, cause: unknown): DatabaseUnavailableError =>
  cause instanceof DatabaseUnavailableError ? cause : new DatabaseUnavailableError(message, cause);

interface Group {
  size: number;
  waiting: { resolve: () => void; reject: (error: unknown) => void }[];
}

/**
 * The service's SQLite transactions (TransactionService begins, commits and rolls them back). Write
 * transactions begin with BEGIN IMMEDIATE, so they hold the file's write lock from their first statement
 * and never fail half-way with SQLITE_BUSY_SNAPSHOT.
 *
 * Group commit: transactions on this connection run one after another anyway; when one finishes its work
 * while others wait for the gate, the next one continues in the same SQLite transaction (inside a savepoint,
 * so that a failure undoes only its own work) and one COMMIT ends them all. Each member's commit() resolves
 * only after that COMMIT, so nothing is acknowledged before it is durable. Writes outside transactions wait
 * at the gate until then; reads run on the reading connection, which sees only what was committed.
 */
export class GroupCommit implements SqliteTransactions {
  private group: Group | undefined;
  /** The members of the open group still at work: the first began the transaction, the others a savepoint. */
  private readonly members = new Map<symbol, 'first' | 'savepoint'>();

  constructor(
    private readonly runner: SqliteRunner,
    private readonly gate: SqliteGate,
    private readonly run: RunStatement,
    /** Whether reads have their own connection (then a commit waits one turn for others to join). */
    private readonly separateReads: boolean,
  ) {}

  async begin(token: symbol): Promise<void> {
    await this.gate.acquire(token);
    const joining = this.group !== undefined;
    try {
      await this.run(joining ? 'SAVEPOINT member' : 'BEGIN IMMEDIATE', [], false, token);
    } catch (error) {
      if (joining) await this.closeGroup(token, 'COMMIT').catch(() => undefined);
      else this.gate.release(token);
      throw error;
    }
    if (this.group) this.group.size += 1;
    else this.group = { size: 1, waiting: [] };
    this.members.set(token, joining ? 'savepoint' : 'first');
    this.setActive(true);
  }

  async commit(token: symbol): Promise<void> {
    if (this.members.get(token) === 'savepoint') await this.run('RELEASE member', [], false, token);
    this.members.delete(token);
    // With reads on their own connection, requests that arrived meanwhile reach their transaction
    // within one turn of the event loop: waiting for it lets them share this COMMIT.
    if (this.separateReads && this.mayGrow() && this.gate.queued === 0) await new Promise(setImmediate);
    if (this.mayGrow() && this.gate.queued > 0) {
      // Queued first: the next member may end the group before this returns.
      const committed = new Promise<void>((resolve, reject) => this.group!.waiting.push({ resolve, reject }));
      this.gate.passOn(token);
      return committed;
    }
    await this.closeGroup(token, 'COMMIT');
  }

  async rollback(token: symbol): Promise<void> {
    const kind = this.members.get(token);
    // Not at work: its group already ended (a COMMIT that failed rejected it).
    if (kind === undefined) return;
    this.members.delete(token);
    if (kind === 'first') return this.closeGroup(token, 'ROLLBACK');
    try {
      await this.run('ROLLBACK TO member', [], false, token);
      await this.run('RELEASE member', [], false, token);
    } catch (error) {
      // SQLite rolled the whole transaction back (it does after some I/O errors): so are the members before.
      return this.closeGroup(token, 'ROLLBACK', error);
    }
    if (this.passOn(token)) return;
    await this.closeGroup(token, 'COMMIT').catch(() => undefined);
  }

  private get connection(): SqliteConnection {
    return this.runner.driver.databaseConnection;
  }

  /** TypeORM's own view of the runner: save() opens no transaction of its own inside one of ours. */
  private setActive(active: boolean): void {
    (this.runner as { isTransactionActive: boolean }).isTransactionActive = active;
    this.runner.transactionDepth = active ? 1 : 0;
  }

  /** Ends the group with `sql`, answers its waiting members, frees the gate. Throws what COMMIT threw. */
  private async closeGroup(token: symbol, sql: 'COMMIT' | 'ROLLBACK', failure?: unknown): Promise<void> {
    const waiting = this.group?.waiting ?? [];
    this.group = undefined;
    let error = failure;
    try {
      if (sql === 'COMMIT') await this.run('COMMIT', [], false, token);
      else if (this.connection.inTransaction) await this.run('ROLLBACK', [], false, token);
    } catch (caught) {
      error ??= caught;
      if (this.connection.inTransaction) await this.run('ROLLBACK', [], false, token).catch(() => undefined);
    } finally {
      this.setActive(false);
      this.gate.release(token);
    }
    if (error === undefined) waiting.forEach((member) => member.resolve());
    else {
      const lost = unavailable('The transaction could not be committed', error);
      waiting.forEach((member) => member.reject(lost));
      if (sql === 'COMMIT') throw lost;
    }
  }

  /** Whether the open group may take another transaction. */
  private mayGrow(): boolean {
    return this.group !== undefined && this.group.size < GROUP_MAX;
  }

  /** Hands the open group to the next waiting transaction when it may grow; false when it must close. */
  private passOn(token: symbol): boolean {
    return this.mayGrow() && this.gate.passOn(token);
  }
}
