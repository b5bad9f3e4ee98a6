import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import { requestContext } from '../common/context/request-context';

/**
 * The one way repositories reach TypeORM (docs/transactions.md): the open transaction's EntityManager when
 * the current work runs inside `TransactionService.run`, else the data source's. Nobody passes a manager
 * around; whether a statement joins the transaction depends only on where it is called from.
 */
export class Database {
  constructor(private readonly dataSource: DataSource) {}

  /** The open transaction's manager, else the data source's. */
  get manager(): EntityManager {
    return requestContext.current()?.tx?.manager ?? this.dataSource.manager;
  }

  getRepository<T extends ObjectLiteral>(target: EntityTarget<T>): Repository<T> {
    return this.manager.getRepository(target);
  }

  /** A hand-written statement, in the open transaction if there is one. */
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T> {
    return this.manager.query<T>(sql, parameters);
  }

  /** Resolves once the database answers a trivial statement (readiness checks). */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  /**
   * Runs `fn` outside the open transaction: its statements neither join it nor wait for it (work queued for
   * after commit, reads that must not hold the transaction's locks).
   */
  outsideTransaction<T>(fn: () => T): T {
    return requestContext.outsideTransaction(fn);
  }
}
