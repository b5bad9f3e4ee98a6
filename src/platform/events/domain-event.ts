/** An event as a transaction publishes it: written to the outbox with the change, delivered after commit. */
export interface DomainEvent<P = unknown> {
  readonly name: string;
  readonly payload: P;
  /** The entity the event is about (`guide`, `17`): audit-style addressing and per-entity ordering. */
  readonly entityType: string;
  readonly entityId: string;
}

/** An event as subscribers receive it. */
export interface DeliveredEvent<P = unknown> extends DomainEvent<P> {
  readonly eventid: number;
  /** Milliseconds since the epoch. */
  readonly occurredAt: number;
  readonly requestId: string | null;
}

/**
 * The one definition of an event: its name, payload type and the entity it is about. The publishing
 * module owns it (`<module>.events.ts`); subscribers import the definition, never redeclare it.
 */
export interface EventType<P> {
  readonly name: string;
  (payload: P): DomainEvent<P>;
}

export function defineEvent<P>(
  name: string,
  entityOf: (payload: P) => [type: string, id: string | number],
): EventType<P> {
  const create = (payload: P): DomainEvent<P> => {
    const [entityType, entityId] = entityOf(payload);
    return { name, payload, entityType, entityId: String(entityId) };
  };
  // A function's own `name` is read-only but configurable: the event's name replaces it.
  return Object.defineProperty(create, 'name', { value: name });
}
