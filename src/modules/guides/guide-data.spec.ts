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
