import { answerTokensChangedBy } from '../../answer-sources';
import { acceptDeferredWrites } from '../deferred-writes';
import { assertOneStatement } from './one-statement';
import type { QueryRunner } from 'typeorm';
import { COMMIT, ROLLBACK, START, type CallbackConnection, type MysqlRunner, type Send } from './types';

/**
 * Inside a transaction, statements travel together (one query with several statements, one socket write and one
 * reply): each query a request sends costs the service and the server CPU on both ends (a guide create spent a
 * quarter of its time in socket writes). START TRANSACTION is held until the transaction's first statement and
 * sent with it (a transaction that sends nothing sends neither START nor COMMIT); deferred writes
 * (../deferred-writes.ts) are held until COMMIT.
 */
export class TransactionBatch {
  /** START TRANSACTION not sent yet. */
  private startPending = false;
  /** The deferred writes not sent yet. */
  private readonly held: { sql: string; parameters: unknown[] }[] = [];
  /** Held writes that failed when sent before another statement: the transaction must not commit. */
  private heldFailure: Error | undefined;

  constructor(
    private readonly queryRunner: QueryRunner,
    private readonly send: Send,
  ) {}

  /** TypeORM's START TRANSACTION: nothing is sent yet. */
  start(): void {
    acceptDeferredWrites(this.queryRunner, this.hold);
    this.startPending = true;
    this.heldFailure = undefined;
  }

  /** For TypeORM's COMMIT or ROLLBACK: true when nothing was sent since the transaction began (nothing to end). */
  ends(sql: string): boolean {
    if (sql === ROLLBACK) this.held.length = 0;
    if ((sql === ROLLBACK || sql === COMMIT) && this.startPending && !this.held.length) {
      this.startPending = false;
      return true;
    }
    return false;
  }

  /** Registered when the runner begins a transaction: a runner of one statement outside any never holds writes. */
  private readonly hold = (sql: string, parameters: unknown[]): boolean => {
    const runner = this.queryRunner as unknown as MysqlRunner;
    // A write of an answer source must be seen now: its tokens are replaced in this transaction.
    if (!runner.isTransactionActive || runner.isReleased || answerTokensChangedBy(sql)) return false;
    assertOneStatement(sql);
    this.queryRunner.connection.logger.logQuery(sql, parameters, this.queryRunner);
    this.held.push({ sql, parameters });
    return true;
  };

  /** Sends `sql` with what waits for it: a pending START TRANSACTION always; held writes when it is the COMMIT. */
  async sendWith(connection: CallbackConnection, sql: string, parameters: unknown[] | undefined): Promise<unknown> {
    const writes = this.held.splice(0);
    if (sql === COMMIT && this.heldFailure) throw this.heldFailure;
    const heldValues = writes.flatMap((write) => write.parameters);
    const statements = this.startPending ? [START] : [];
    this.startPending = false;
    if (writes.length && sql !== COMMIT) {
      // Sent before the statement, on their own: an error the statement answers is then its own (callers catch
      // duplicate keys and go on). If they fail, the caller sees their error, and the COMMIT fails with it.
      const sending = [...statements, ...writes.map((write) => write.sql)].join(';\n');
      await this.send(connection, sending, heldValues).catch((error: Error) => {
        this.heldFailure = error;
        throw error;
      });
      return this.send(connection, sql, parameters);
    }
    statements.push(...writes.map((write) => write.sql));
    if (!statements.length) return this.send(connection, sql, parameters);
    const values = [...heldValues, ...(parameters ?? [])];
    const results = (await this.send(
      connection,
      [...statements, sql.replace(/;\s*$/, '')].join(';\n'),
      values,
    )) as unknown[];
    return results[statements.length];
  }
}
