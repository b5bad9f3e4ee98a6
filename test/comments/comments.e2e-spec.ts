import { CommentEntity } from '../../src/modules/comments/entities/comment.entity';
import { CommentContextTestModule, PRIVATE_GUIDE, state } from '../support/comment-context-test.module';
import { createUser } from '../factories/user.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

const TEXT = 'A helpful comment about this guide.';

describe('comments', () => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof createUser>>;
  let bob: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp({ extraModules: [CommentContextTestModule] });
    alice = await createUser(t, { username: 'Alice' });
    bob = await createUser(t, { username: 'Bob' });
    state.privateReader = alice.user.userid;
  });
  afterAll(() => t.close());

  const post = (token: string | undefined, url: string, payload: object) =>
    t.as(token, { method: 'POST', url: `/api/2.0/comments/${url}`, payload });

  describe('POST /comments/{context}/{contextid}', () => {
    it('answers 401, 422 for an unknown context or bad text, 404 for an unknown or unreadable document', async () => {
      expect((await post(undefined, 'guide/1', { text: TEXT })).statusCode).toBe(401);
      const context = await post(alice.token, 'story/1', { text: TEXT });
      expect(context.statusCode).toBe(422);
      expect(context.json().errors).toEqual([{ message: 'context must be one of guide, step', field: 'context' }]);
      expect((await post(alice.token, 'guide/1', { text: 'too short' })).json().errors[0].field).toBe('text');
      expect((await post(alice.token, 'guide/1', { text: TEXT, rating: 5 })).statusCode).toBe(422);
      expect((await post(alice.token, 'guide/99', { text: TEXT })).statusCode).toBe(404);
      expect((await post(bob.token, `guide/${PRIVATE_GUIDE}`, { text: TEXT })).statusCode).toBe(404);
    });

    it('creates a comment: 201 with the whole comment', async () => {
      const res = await post(alice.token, 'guide/1', { text: `  ${TEXT} '''Really'''.  `, langid: 'en' });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        commentid: expect.any(Number),
        locale: 'en',
        context: 'guide',
        contextid: 1,
        parentid: null,
        author: expect.objectContaining({ userid: alice.user.userid, username: 'Alice' }),
        title: 'Guide 1',
        text_raw: `${TEXT} '''Really'''.`,
        text_rendered: `<p>${TEXT} <strong>Really</strong>.</p>`,
        rating: 0,
        date: expect.any(Number),
        modified_date: 0,
        replied_date: 0,
        status: 'public',
        replies: [],
      });
      expect(res.json().author.privileges).toBeUndefined();
    });

    it('takes replies one level deep, on the same document only', async () => {
      const parent = (await post(alice.token, 'guide/1', { text: TEXT })).json();
      const reply = await post(bob.token, 'guide/1', { text: 'A reply to that comment.', parentid: parent.commentid });
      expect(reply.statusCode).toBe(201);
      expect(reply.json()).toMatchObject({ parentid: parent.commentid, replies: [] });
      const nested = await post(alice.token, 'guide/1', {
        text: 'A reply to the reply.',
        parentid: reply.json().commentid,
      });
      expect(nested.statusCode).toBe(422);
      expect(nested.json().errors).toEqual([
        { message: 'parentid must be a top-level comment on the same document', field: 'parentid' },
      ]);
      expect((await post(alice.token, 'guide/2', { text: TEXT, parentid: parent.commentid })).statusCode).toBe(422);
      const got = (await t.inject({ method: 'GET', url: `/api/2.0/comments/${parent.commentid}` })).json();
      expect(got.replies.map((r: { commentid: number }) => r.commentid)).toEqual([reply.json().commentid]);
      expect(got.replied_date).toBeGreaterThan(0);
      expect(got.replies[0].replies).toBeUndefined();
    });
  });

  describe('GET /comments/{commentid}', () => {
    it('answers 404 for an unknown comment and for one on a document the caller may not read', async () => {
      expect((await t.inject({ method: 'GET', url: '/api/2.0/comments/999999' })).statusCode).toBe(404);
      const secret = (await post(alice.token, `guide/${PRIVATE_GUIDE}`, { text: TEXT })).json();
      expect((await t.inject({ method: 'GET', url: `/api/2.0/comments/${secret.commentid}` })).statusCode).toBe(404);
      expect((await t.as(bob.token, { method: 'GET', url: `/api/2.0/comments/${secret.commentid}` })).statusCode).toBe(
        404,
      );
      expect(
        (await t.as(alice.token, { method: 'GET', url: `/api/2.0/comments/${secret.commentid}` })).statusCode,
      ).toBe(200);
    });
  });

  describe('PATCH /comments/{commentid}', () => {
    it('lets the author edit within 5 minutes; others 403; later 403; Admins always', async () => {
      const comment = (await post(alice.token, 'guide/1', { text: TEXT })).json();
      const url = `/api/2.0/comments/${comment.commentid}`;
      expect(
        (await t.as(bob.token, { method: 'PATCH', url, payload: { text: 'Bob rewrites this text.' } })).statusCode,
      ).toBe(403);
      expect((await t.as(alice.token, { method: 'PATCH', url, payload: { text: 'short' } })).statusCode).toBe(422);
      const edited = await t.as(alice.token, { method: 'PATCH', url, payload: { text: 'Alice fixed a typo here.' } });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ text_raw: 'Alice fixed a typo here.', modified_date: expect.any(Number) });
      expect(edited.json().modified_date).toBeGreaterThan(0);
      await t.dataSource.getRepository(CommentEntity).update({ commentid: comment.commentid }, { createdDate: 1000 });
      const late = await t.as(alice.token, { method: 'PATCH', url, payload: { text: 'Too late to change this.' } });
      expect(late.statusCode).toBe(403);
      expect(late.json().message).toBe('Comments can be edited for 5 minutes after they are written');
      const admin = await createUser(t, { privilege: 'Admin' });
      expect(
        (await t.as(admin.token, { method: 'PATCH', url, payload: { text: 'An Admin edits at any time.' } }))
          .statusCode,
      ).toBe(200);
    });
  });

  describe('DELETE /comments/{commentid}', () => {
    it('lets the author or a Moderator delete; soft, replies included; others 403', async () => {
      const comment = (await post(alice.token, 'guide/2', { text: TEXT })).json();
      const reply = (
        await post(bob.token, 'guide/2', { text: 'Bob replies to this.', parentid: comment.commentid })
      ).json();
      const url = `/api/2.0/comments/${comment.commentid}`;
      expect((await t.inject({ method: 'DELETE', url })).statusCode).toBe(401);
      expect((await t.as(bob.token, { method: 'DELETE', url })).statusCode).toBe(403);
      const res = await t.as(alice.token, { method: 'DELETE', url });
      expect(res.statusCode).toBe(204);
      const got = (await t.inject({ method: 'GET', url })).json();
      expect(got.status).toBe('deleted');
      expect(got.replies).toEqual([expect.objectContaining({ commentid: reply.commentid, status: 'deleted' })]);
      const mod = await createUser(t, { privilege: 'Moderator' });
      const other = (await post(bob.token, 'guide/2', { text: TEXT })).json();
      expect(
        (await t.as(mod.token, { method: 'DELETE', url: `/api/2.0/comments/${other.commentid}` })).statusCode,
      ).toBe(204);
    });
  });

  describe('GET /comments', () => {
    it('lists public top-level comments with public replies, leaving out unreadable documents, with bounded SQL', async () => {
      const res = await t.inject({ method: 'GET', url: '/api/2.0/comments?limit=200' });
      expect(res.statusCode).toBe(200);
      const items = res.json<{ contextid: number; status: string; parentid: number | null; replies: unknown[] }[]>();
      expect(items.length).toBeGreaterThan(2);
      expect(items.every((c) => c.status === 'public' && c.parentid === null && c.contextid !== PRIVATE_GUIDE)).toBe(
        true,
      );
      expect(sqlCount(res)).toBeLessThanOrEqual(5);
      const mine = await t.as(alice.token, { method: 'GET', url: '/api/2.0/comments?limit=200&order=DESC' });
      expect(mine.json().some((c: { contextid: number }) => c.contextid === PRIVATE_GUIDE)).toBe(true);
      expect((await t.inject({ method: 'GET', url: '/api/2.0/comments?context=wiki' })).statusCode).toBe(422);
    });
  });
});
