import type { DataSource } from 'typeorm';
import type { CounterBackend } from './counter-backend';

interface MysqlResult {
  affectedRows: number;
  insertId: number;
}

/**
 * Counters in the `rate_limit_counters` table. Each increment is one atomic statement: SQLite's upsert
 * with RETURNING, MySQL's INSERT … ON DUPLICATE KEY UPDATE that hands the new total back through
 * LAST_INSERT_ID(expr) (no second statement, no lock held between two).
 */
export class RateLimitCountersRepository implements CounterBackend {
  private readonly mysql: boolean;

  constructor(private readonly dataSource: DataSource) {
    this.mysql = dataSource.options.type === 'mysql' || dataSource.options.type === 'mariadb';
  }

  async add(key: string, amount: number, expiresAt: number): Promise<number> {
    if (this.mysql) {
      const result = await this.dataSource.query<MysqlResult>(
        'INSERT INTO `rate_limit_counters` (`counter_key`, `hits`, `expires_at`) VALUES (?, ?, ?) ' +
          'ON DUPLICATE KEY UPDATE `hits` = LAST_INSERT_ID(`hits` + ?)',
        [key, amount, expiresAt, amount],
      );
      // 1 affected row: inserted (the total is `amount`); 2: updated, the total is in insertId.
      return result.affectedRows === 1 ? amount : Number(result.insertId);
    }
    const rows = await this.dataSource.query<{ hits: number | string }[]>(
      'INSERT INTO "rate_limit_counters" ("counter_key", "hits", "expires_at") VALUES (?, ?, ?) ' +
        'ON CONFLICT ("counter_key") DO UPDATE SET "hits" = "hits" + excluded."hits" RETURNING "hits"',
      [key, amount, expiresAt],
    );
    return Number(rows[0].hits);
  }

  async get(key: string): Promise<number> {
    const q = this.mysql ? '`' : '"';
    const rows = await this.dataSource.query<{ hits: number | string }[]>(
      `SELECT ${q}hits${q} AS hits FROM ${q}rate_limit_counters${q} WHERE ${q}counter_key${q} = ?`,
      [key],
    );
    return rows.length ? Number(rows[0].hits) : 0;
  }

  async purge(now: number): Promise<void> {
    const q = this.mysql ? '`' : '"';
    await this.dataSource.query(`DELETE FROM ${q}rate_limit_counters${q} WHERE ${q}expires_at${q} < ?`, [now]);
  }

  async close(): Promise<void> {
    // the data source belongs to the application
  }
}
