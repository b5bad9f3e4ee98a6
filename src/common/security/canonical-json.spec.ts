import { canonicalJson } from './canonical-json';

/** The first implementation, kept as the reference: stored hashes were taken over its output. */
function reference(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(',')}}`;
}

/** A small deterministic generator (no randomness in tests that must reproduce). */
function* values(seed: number): Generator<unknown> {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
  const keys = ['a', 'B', 'é', 'z', '10', '2', '', '\u{1F600}', 'ab', 'a\u0000', '__proto__x'];
  const make = (depth: number): unknown => {
    switch (next() % (depth > 3 ? 6 : 9)) {
      case 0:
        return null;
      case 1:
        return undefined;
      case 2:
        return (next() % 1000) / 7;
      case 3:
        return `s${next() % 50}"\\\n`;
      case 4:
        return next() % 2 === 0;
      case 5:
        return -next();
      case 6:
        return Array.from({ length: next() % 5 }, () => make(depth + 1));
      default: {
        const out: Record<string, unknown> = {};
        for (let i = next() % 6; i > 0; i -= 1) out[keys[next() % keys.length]] = make(depth + 1);
        return out;
      }
    }
  };
  for (;;) yield make(0);
}

describe('canonicalJson', () => {
  it('sorts keys at every level, leaves out undefined members and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, undefined, { y: 2, x: undefined }], c: 'x' }, u: undefined })).toBe(
      '{"a":{"c":"x","d":[1,null,{"y":2}]},"b":1}',
    );
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(() => 1)).toBe('null');
  });

  it('gives exactly the text of the reference implementation for 5,000 generated values', () => {
    const generated = values(42);
    for (let i = 0; i < 5000; i += 1) {
      const value = generated.next().value;
      expect(canonicalJson(value)).toBe(reference(value));
    }
    // eslint-disable-next-line no-sparse-arrays
    const sparse = [1, , 3];
    expect(canonicalJson(sparse)).toBe(reference(sparse));
  });
});
