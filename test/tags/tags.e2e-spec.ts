import { TransactionService } from '../../src/database/transaction.service';
import { TagsService } from '../../src/modules/tags/tags.service';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

describe('tags', () => {
  let t: TestApp;
  let tags: TagsService;

  beforeAll(async () => {
    t = await createTestApp();
    tags = t.app.get(TagsService);
  });
  afterAll(() => t.close());

  describe('TagsService', () => {
    it('normalize trims and answers 422 on field "tag" when empty or longer than 32 characters', () => {
      expect(tags.normalize('  Battery  ')).toBe('Battery');
      expect(tags.normalize('x'.repeat(32))).toBe('x'.repeat(32));
      expect(tags.normalize('ü'.repeat(32))).toBe('ü'.repeat(32));
      for (const bad of ['', '   ', 'x'.repeat(33), 'a\nb']) {
        try {
          tags.normalize(bad);
          throw new Error(`accepted ${JSON.stringify(bad)}`);
        } catch (error) {
          expect((error as { getStatus(): number }).getStatus()).toBe(422);
          expect((error as { getResponse(): { errors: { field: string }[] } }).getResponse().errors[0].field).toBe(
            'tag',
          );
        }
      }
    });

    it('creates a tag on first use, keeps the first spelling, matches case-insensitively, and is idempotent', async () => {
      await tags.add('guide', 1, ' Battery ');
      await tags.add('guide', 1, 'battery');
      await tags.add('guide', 1, 'Screen');
      await tags.add('guide', 2, 'BATTERY');
      await tags.add('wiki', 1, 'résumé');
      await tags.add('wiki', 1, 'resume');
      const guides = await tags.tagsOf('guide', [1, 2, 3]);
      expect([...guides.entries()]).toEqual([
        [1, ['Battery', 'Screen']],
        [2, ['Battery']],
        [3, []],
      ]);
      expect([...(await tags.tagsOf('wiki', [1])).entries()]).toEqual([[1, ['resume', 'résumé']]]);
      await tags.remove('guide', 1, 'BATTERY');
      await tags.remove('guide', 1, 'never-existed');
      await tags.remove('guide', 1, 'battery');
      expect((await tags.tagsOf('guide', [1])).get(1)).toEqual(['Screen']);
    });

    it("works inside the caller's transaction and rolls back with it", async () => {
      await expect(
        t.app.get(TransactionService).run(async () => {
          await tags.add('guide', 9, 'Rolled back');
          expect((await tags.tagsOf('guide', [9])).get(9)).toEqual(['Rolled back']);
          throw new Error('guide save failed');
        }),
      ).rejects.toThrow('guide save failed');
      expect((await tags.tagsOf('guide', [9])).get(9)).toEqual([]);
    });
  });

  describe('GET /tags', () => {
    it('validates paging (422)', async () => {
      for (const query of ['limit=0', 'limit=x', 'offset=-1', 'order=UP']) {
        const res = await t.inject({ method: 'GET', url: `/api/2.0/tags?${query}` });
        expect([query, res.statusCode]).toEqual([query, 422]);
      }
    });

    it('lists every tag in creation (tag id) order, both ways, in one statement', async () => {
      const res = await t.inject({ method: 'GET', url: '/api/2.0/tags' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(['Battery', 'Screen', 'résumé', 'resume']);
      expect(sqlCount(res)).toBe(1);
      const desc = await t.inject({ method: 'GET', url: '/api/2.0/tags?order=desc&limit=2' });
      expect(desc.json()).toEqual(['resume', 'résumé']);
      const page = await t.inject({ method: 'GET', url: '/api/2.0/tags?offset=1&limit=2' });
      expect(page.json()).toEqual(['Screen', 'résumé']);
      const clamped = await t.inject({ method: 'GET', url: '/api/2.0/tags?limit=5000' });
      expect(clamped.statusCode).toBe(200);
    });
  });
});
