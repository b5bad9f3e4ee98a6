import { requestContext } from '../../common/context/request-context';

/**
 * Copies of derived content an instance keeps in memory, each under the version token it was built under (see
 * ContentVersions): a copy is served only while a check reads that same token. Past `max` copies the oldest
 * kept is dropped.
 */
export class KeptCopies<T> {
  private readonly copies = new Map<string, { token: string; value: T }>();

  constructor(private readonly max: number) {}

  /** The copy of `key` kept under `token`; none when the token is null (nothing may be served) or another one. */
  get(key: string, token: string | null): T | undefined {
    if (token === null) return undefined;
    const kept = this.copies.get(key);
    return kept?.token === token ? kept.value : undefined;
  }

  /**
   * keep, for a copy whose statement read `token` outside a transaction; nothing otherwise: inside one, rows may
   * be its own uncommitted writes under a token it has not replaced yet, and with no token nothing may be kept.
   */
  keepCommitted(key: string, token: string | null, value: T): void {
    if (token !== null && !requestContext.current()?.tx) this.keep(key, token, value);
  }

  /** Keeps `value` as the copy of `key` under `token`. */
  keep(key: string, token: string, value: T): void {
    this.copies.delete(key);
    if (this.copies.size >= this.max) this.copies.delete(this.copies.keys().next().value!);
    this.copies.set(key, { token, value });
  }
}
