import { entityTag, noneMatch } from './conditional-get';

describe('conditional GET', () => {
  const tag = entityTag('{"a":1}');

  it('tags bytes with a strong, quoted base64url SHA-1 that changes with them', () => {
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(entityTag(Buffer.from('{"a":1}'))).toBe(tag);
    expect(entityTag('{"a":2}')).not.toBe(tag);
  });

  it('matches If-None-Match weakly, in lists and with *', () => {
    expect(noneMatch(undefined, tag)).toBe(false);
    expect(noneMatch('', tag)).toBe(false);
    expect(noneMatch(tag, tag)).toBe(true);
    expect(noneMatch(`W/${tag}`, tag)).toBe(true);
    expect(noneMatch(`"x", ${tag} `, tag)).toBe(true);
    expect(noneMatch('*', tag)).toBe(true);
    expect(noneMatch('"x"', tag)).toBe(false);
    expect(noneMatch(tag.slice(1, -1), tag)).toBe(false);
  });
});
