import type { DataSource } from 'typeorm';
import { Database } from '../../database/database';

/** The statements of `content_versions` (ContentVersions decides which). */
export class ContentVersionsRepository {
  private readonly database: Database;

  constructor(dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  /** Runs an upsert of tokens, in the open transaction if there is one. */
  async replace(sql: string, parameters: string[]): Promise<void> {
    await this.database.query(sql, parameters);
  }

  /** The statement's first row. */
  async row(sql: string, parameters: string[]): Promise<Record<string, unknown> | undefined> {
    const rows = await this.database.query<Record<string, unknown>[]>(sql, parameters);
    return rows[0];
  }
}
