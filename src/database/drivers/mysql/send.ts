import { requestContext } from '../../../common/context/request-context';
import type { Send } from './types';

/** Sends through mysql2's callback API with the statement time-out (undefined: none); counts the round trip. */
export const sender =
  (timeout: number | undefined): Send =>
  (connection, sql, parameters) => {
    const stats = requestContext.current()?.stats;
    if (stats) stats.sqlRoundTrips = (stats.sqlRoundTrips ?? 0) + 1;
    return new Promise<unknown>((resolve, reject) =>
      connection.query({ sql, timeout }, parameters, (error: Error | null, result: unknown) =>
        error ? reject(error) : resolve(result),
      ),
    );
  };
