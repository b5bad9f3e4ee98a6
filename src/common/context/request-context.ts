import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request state that lower layers (the SQL logger, events) read without parameter threading. */
export interface RequestContext {
  requestId: string;
  sqlStatements: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  run<T>(context: RequestContext, fn: () => T): T {
    return storage.run(context, fn);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
};
