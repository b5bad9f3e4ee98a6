import { canonical, generatedTitle, isPermutation, lineLevelProblem, sameData, timeRequiredText } from './guide-data';

describe('guide data rules', () => {
  it('generates titles from type, category and subject', () => {
    expect(generatedTitle('replacement', 'iPhone 6', 'Battery')).toBe('iPhone 6 Battery Replacement');
    expect(generatedTitle('teardown', 'iPhone 6', '')).toBe('iPhone 6 Teardown');
    expect(generatedTitle('repair', 'Washer', '  ')).toBe('Washer Repair');
  });

  it('compares data independently of key order', () => {
    expect(canonical({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
    expect(sameData({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameData({ a: 1 }, { a: 2 })).toBe(false);
  });

  it('sameData says what comparing the canonical JSON says, for 20,000 generated pairs', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const leaves: unknown[] = [
      0,
      -0,
      1,
      2.5,
      NaN,
      Infinity,
      '',
      'a',
      'b',
      true,
      false,
      null,
      undefined,
      () => 1,
      new Date(0),
    ];
    const value = (depth: number): unknown => {
      const pick = random();
      if (depth > 2 || pick < 0.5) return leaves[Math.floor(random() * leaves.length)];
      if (pick < 0.75) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      const object: Record<string, unknown> = {};
      for (const key of ['a', 'b', 'c'].filter(() => random() < 0.6)) object[key] = value(depth + 1);
      return object;
    };
    /** The same value with its keys in another order, or with small changes now and then. */
    const twin = (v: unknown): unknown => {
      if (random() < 0.1) return value(2);
      if (Array.isArray(v)) return v.map(twin);
      if (v && typeof v === 'object' && !(v instanceof Date)) {
        const entries = Object.entries(v).reverse();
        if (random() < 0.1) entries.push(['d', undefined]);
        return Object.fromEntries(entries.map(([k, x]) => [k, twin(x)]));
      }
      return v;
    };
    let equal = 0;
    const wrong: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const a = value(0);
      const b = random() < 0.7 ? twin(a) : value(0);
      const expected = canonical(a) === canonical(b);
      if (sameData(a, b) !== expected) wrong.push(`${canonical(a)} ${canonical(b)}`);
      if (expected) equal++;
    }
    expect(wrong).toEqual([]);
    expect(equal).toBeGreaterThan(5_000);
  });

  it('recognises permutations only', () => {
    expect(isPermutation([3, 1, 2], [1, 2, 3])).toBe(true);
    expect(isPermutation([1, 1, 2], [1, 2, 3])).toBe(false);
    expect(isPermutation([1, 2], [1, 2, 3])).toBe(false);
    expect(isPermutation([1, 2, 4], [1, 2, 3])).toBe(false);
  });

  it('finds the first line that indents too deep', () => {
    expect(lineLevelProblem([{ level: 0 }, { level: 1 }, { level: 2 }, { level: 0 }])).toBeUndefined();
    expect(lineLevelProblem([{ level: 1 }])).toBe(0);
    expect(lineLevelProblem([{ level: 0 }, { level: 2 }])).toBe(1);
  });

  it('formats time estimates', () => {
    expect(timeRequiredText(0, 0)).toBe('No estimate');
    expect(timeRequiredText(1800, 3600)).toBe('30 minutes - 1 hour');
    expect(timeRequiredText(0, 600)).toBe('10 minutes');
  });
});
