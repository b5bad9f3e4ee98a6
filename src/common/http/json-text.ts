/**
 * An answer as its JSON text, its value, or both: a mapper that writes the text from stored pieces without building
 * the value (guide detail, src/modules/guides/guide-fragments.ts) gives the text, with an entity tag when it knows a
 * strong one cheaper than hashing the bytes; the other form is made when first asked for. A route returns it as it
 * returns a DTO: plain JSON sends the text as it is; `?pretty`, XML and anything else that serializes it read the
 * value (the serialization hook).
 */
export class JsonText<T> {
  private constructor(
    private json: string | undefined,
    private parsed: T | undefined,
    readonly etag: string | undefined,
  ) {}

  /** `text` must be what JSON.stringify gives the value. */
  static ofText<T>(text: string, etag?: string): JsonText<T> {
    return new JsonText<T>(text, undefined, etag);
  }

  static of<T>(value: T): JsonText<T> {
    return new JsonText<T>(undefined, value, undefined);
  }

  get text(): string {
    this.json ??= JSON.stringify(this.parsed);
    return this.json;
  }

  value(): T {
    this.parsed ??= JSON.parse(this.json!) as T;
    return this.parsed;
  }

  toJSON(): T {
    return this.value();
  }
}
