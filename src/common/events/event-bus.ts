import { Injectable, Logger } from '@nestjs/common';

/** A fact that happened, published only after its transaction committed. */
export interface DomainEvent<TName extends string = string, TPayload = unknown> {
  name: TName;
  payload: TPayload;
}

type Handler = (event: DomainEvent) => void | Promise<void>;

/**
 * In-process event bus. Handlers run after the response path has moved on (setImmediate), so a slow
 * or failing handler never slows or fails the request that caused the event; failures are logged.
 */
@Injectable()
export class EventBus {
  private readonly logger = new Logger(EventBus.name);
  private readonly handlers = new Map<string, Handler[]>();
  private pending = 0;
  private idleWaiters: (() => void)[] = [];

  on(name: string, handler: Handler): void {
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler]);
  }

  publish(event: DomainEvent): void {
    for (const handler of this.handlers.get(event.name) ?? []) {
      this.pending += 1;
      setImmediate(() => {
        Promise.resolve()
          .then(() => handler(event))
          .catch((error: unknown) => this.logger.error({ err: error, event: event.name }, 'event handler failed'))
          .finally(() => {
            this.pending -= 1;
            if (this.pending === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
          });
      });
    }
  }

  /** Resolves when every handler started so far has finished (tests, graceful shutdown). */
  idle(): Promise<void> {
    return this.pending === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
