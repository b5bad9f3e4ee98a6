import { tagKey } from './tags.service';

describe('tagKey', () => {
  it('is case-insensitive and accent-sensitive', () => {
    expect(tagKey('Battery')).toBe(tagKey('BATTERY'));
    expect(tagKey('résumé')).not.toBe(tagKey('resume'));
    expect(tagKey('x')).toMatch(/^[0-9a-f]{64}$/);
  });
});
