import { requestContext } from '../../common/context/request-context';

/**
 * Copies of derived content an instance keeps in memory, each under the version token it was built under (see
 * ContentVersions): a copy is served only while a check reads that same token. Past `max` copies the oldest
 * kept is dropped.
 */
export class KeptCopies<T> {
  private readonly copies = new Map<string, { token: string; value: T; size: number }>();
  private size = 0;

  /** `budget`: copies are also dropped, oldest first, while their sizes add up to more than `bytes`. */
  constructor(
    private readonly max: number,
    private readonly budget?: { bytes: number; sizeOf: (value: T) => number },
  ) {}

  /** The copy of `key` kept under `token`; none when the token is null (nothing may be served) or another one. */
  get(key: string, token: string | null): T | undefined {
    if (token === null) return undefined;
    const kept = this.copies.get(key);
    return kept?.token === token ? kept.value : undefined;
  }

  /** The token the copy of `key` is kept under, if there is one. */
  tokenOf(key: string): string | undefined {
    return this.copies.get(key)?.token;
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
    const size = this.budget?.sizeOf(value) ?? 0;
    this.drop(key);
    if (this.budget && size > this.budget.bytes) return;
    while (
      this.copies.size > 0 &&
      (this.copies.size >= this.max || (this.budget && this.size + size > this.budget.bytes))
    )
      this.drop(this.copies.keys().next().value!);
    this.copies.set(key, { token, value, size });
    this.size += size;
  }

  private drop(key: string): void {
    const kept = this.copies.get(key);
    if (!kept) return;
    this.copies.delete(key);
    this.size -= kept.size;
  }
}
