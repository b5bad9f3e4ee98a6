import type { EntityManager, QueryRunner } from 'typeorm';

/** Takes a write to send later in the runner's open transaction; false when it must run now. */
type Deferral = (sql: string, parameters: unknown[]) => boolean;

const deferrals = new WeakMap<QueryRunner, Deferral>();

/** Called by a connection that can hold writes back (mysql/transaction-batch.ts) for each of its query runners. */
export function acceptDeferredWrites(runner: QueryRunner, deferral: Deferral): void {
  deferrals.set(runner, deferral);
}

/**
 * A write whose answer nobody reads and whose failure fails the whole transaction (the outbox rows, the answer
 * tokens): on MySQL, inside a transaction, it is held back and sent with the transaction's COMMIT (or before its
 * next statement), so it costs no round trip of its own. Elsewhere it runs at once. Either way it is part of the
 * transaction: if it fails, the transaction does not commit.
 */
export async function deferWrite(manager: EntityManager, sql: string, parameters: unknown[]): Promise<void> {
  const runner = manager.queryRunner;
  const deferral = runner && deferrals.get(runner);
  if (deferral?.(sql, parameters)) return;
  await manager.query(sql, parameters);
}
