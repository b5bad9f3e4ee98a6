type Primitive = string | number | boolean | null | undefined;
type Snapshot = Record<string, Primitive>;

const MAX_KEY_LENGTH = 512;
const MAX_ENTRIES_PER_DTO = 256;

const isPrimitive = (value: unknown): value is Primitive =>
  value === null || (typeof value !== 'object' && typeof value !== 'function');

/**
 * Query DTOs that passed validation, by DTO class and query string values. Validating a query DTO
 * (class-transformer, then class-validator's metadata lookups) costs more than many reads it guards, and
 * the same few queries come again and again (most often none at all). Validation depends only on the
 * values, so a query seen before gets a copy of the DTO it produced: same prototype, same own properties
 * in the same order. Only flat queries and DTOs of primitive values are kept; failures are never kept.
 */
export class QueryValidationCache {
  private readonly byDto = new WeakMap<object, Map<string, Snapshot>>();

  /** The cache key of a query object, or undefined when it is not a small object of string values. */
  keyOf(query: unknown): string | undefined {
    if (query === null || typeof query !== 'object' || Array.isArray(query)) return undefined;
    const values = Object.values(query);
    if (!values.every((value) => typeof value === 'string')) return undefined;
    const key = JSON.stringify(query);
    return key.length <= MAX_KEY_LENGTH ? key : undefined;
  }

  get<T extends object>(dto: abstract new () => T, key: string): T | undefined {
    const snapshot = this.byDto.get(dto)?.get(key);
    return snapshot && Object.assign(Object.create(dto.prototype as object) as T, snapshot);
  }

  set(dto: abstract new () => object, key: string, validated: object): void {
    const snapshot = { ...validated } as Record<string, unknown>;
    if (!Object.values(snapshot).every(isPrimitive)) return;
    let entries = this.byDto.get(dto);
    if (!entries) this.byDto.set(dto, (entries = new Map<string, Snapshot>()));
    if (entries.size >= MAX_ENTRIES_PER_DTO) entries.clear();
    entries.set(key, snapshot as Snapshot);
  }
}
