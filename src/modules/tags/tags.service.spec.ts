import type { TagsRepository } from './tags.repository';
import { TagsService, tagKey } from './tags.service';

describe('tagKey', () => {
  it('is case-insensitive and accent-sensitive', () => {
    expect(tagKey('Battery')).toBe(tagKey('BATTERY'));
    expect(tagKey('résumé')).not.toBe(tagKey('resume'));
    expect(tagKey('x')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('TagsService kinds', () => {
  const service = () => new TagsService({} as TagsRepository);

  it('refuses a kind nobody registered, before any query', async () => {
    await expect(service().tagsOf('guide', [1])).rejects.toThrow('Unknown tagged kind guide');
  });

  it('takes each kind once, short enough for the stored doc_kind', () => {
    const tags = service();
    tags.registerKind('guide');
    expect(() => tags.registerKind('guide')).toThrow('already registered');
    expect(() => tags.registerKind('averyverylongkind')).toThrow('Invalid tagged kind');
  });
});
