/**
 * Thrown by a service when a conditional update (`UPDATE … WHERE revisionid = ?`) touched no row.
 * `loadCurrent` builds the current resource in its response shape for the 409 body; the RevisionInterceptor runs
 * it after the transaction has ended, with reads that see every commit (requestContext.readingLatest).
 */
export class StaleRevisionError extends Error {
  constructor(readonly loadCurrent: () => Promise<unknown>) {
    super('The resource was changed since the supplied revisionid');
    this.name = 'StaleRevisionError';
  }
}
