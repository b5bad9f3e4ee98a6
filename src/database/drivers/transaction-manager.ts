import type { DataSource, EntityManager } from 'typeorm';
import { requestContext } from '../../common/context/request-context';

/**
 * Replaces TypeORM's `dataSource.manager` (an own property set in the DataSource constructor) with a getter
 * that answers the open transaction's manager when there is one, so repositories that use it join the
 * transaction instead of running beside it (or deadlocking against it). Outside transactions it answers
 * TypeORM's own manager.
 */
export function answerTransactionManager(dataSource: DataSource): void {
  const base = dataSource.manager;
  Object.defineProperty(dataSource, 'manager', {
    configurable: true,
    get: (): EntityManager => requestContext.current()?.tx?.manager ?? base,
  });
}
