import type { SqliteConnection, SqliteStatement } from './types';

/**
 * Prepared statements by SQL text, the oldest dropped past `size`. Numbers are bound as parameters
 * (number-parameters.ts), so one query shape is prepared once.
 */
export class StatementCache {
  private readonly statements = new Map<string, SqliteStatement>();

  constructor(
    private readonly connection: () => SqliteConnection,
    private readonly size = 1000,
  ) {}

  prepared(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.connection().prepare(sql);
      this.statements.set(sql, statement);
      if (this.statements.size > this.size) this.statements.delete(this.statements.keys().next().value as string);
    }
    return statement;
  }
}
