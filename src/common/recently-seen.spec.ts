import { RecentlySeen } from './recently-seen';

describe('RecentlySeen', () => {
  it('is true once per key per window', () => {
    const seen = new RecentlySeen(60_000);
    expect(seen.firstIn('a', 0)).toBe(true);
    expect(seen.firstIn('a', 59_999)).toBe(false);
    expect(seen.firstIn('b', 1)).toBe(true);
    expect(seen.firstIn('a', 60_000)).toBe(true);
    expect(seen.firstIn('a', 60_001)).toBe(false);
  });

  it('stays within its size, forgetting expired keys first, then the oldest', () => {
    const seen = new RecentlySeen(1000, 4);
    ['a', 'b', 'c', 'd'].forEach((key, i) => seen.firstIn(key, i));
    expect(seen.firstIn('e', 2000)).toBe(true);
    expect(seen.firstIn('e', 2001)).toBe(false);
    ['f', 'g', 'h'].forEach((key) => seen.firstIn(key, 2002));
    expect(seen.firstIn('i', 2003)).toBe(true);
    expect(seen.firstIn('h', 2004)).toBe(false);
  });
});
