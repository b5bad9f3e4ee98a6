import { solidImage, tempMediaDir } from '../factories/media.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;

describe('compatibility with real clients (issue #13)', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  let user: CreatedUser;
  beforeAll(async () => {
    t = await createTestApp({ env: { ALLOW_REGISTRATION: 'false', MEDIA_DIR: tempMediaDir() } });
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    user = await createUser(t);
  });
  afterAll(() => t.close());

  describe('table_of_contents on wikis', () => {
    it('422 when it is not a boolean', async () => {
      const res = await t.as(author.token, {
        method: 'POST',
        url: api('/wikis'),
        payload: { namespace: 'WIKI', title: 'TOC bad', contents: 'x', table_of_contents: 'yes' },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual([
        { message: 'table_of_contents must be a boolean value', field: 'table_of_contents' },
      ]);
    });

    it('is stored on create (as Dozuki clients send it), changed by an edit and returned in the detail', async () => {
      const created = await t.as(author.token, {
        method: 'POST',
        url: api('/wikis'),
        payload: { namespace: 'WIKI', title: 'A new page by API', contents: 'Text.', table_of_contents: true },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json().table_of_contents).toBe(true);
      const read = await t.inject({ method: 'GET', url: api('/wikis/WIKI/A_new_page_by_API') });
      expect(read.json().table_of_contents).toBe(true);
      const edited = await t.as(author.token, {
        method: 'PATCH',
        url: api(`/wikis/WIKI/A_new_page_by_API?revisionid=${created.json().revisionid}`),
        payload: { table_of_contents: false },
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ table_of_contents: false, contents_raw: 'Text.' });
      expect(edited.json().revisionid).toBeGreaterThan(created.json().revisionid);
      const plain = await t.as(author.token, {
        method: 'POST',
        url: api('/wikis'),
        payload: { namespace: 'WIKI', title: 'No TOC', contents: 'Text.' },
      });
      expect(plain.json().table_of_contents).toBe(false);
    });
  });

  describe('cropToRatio=VARIABLE on image upload', () => {
    it('is accepted and keeps the image as it is; other unknown values are a 422', async () => {
      const png = await solidImage(300, 120);
      const upload = (crop: string) =>
        t.as(user.token, {
          method: 'POST',
          url: api(`/user/media/images?file=wide.png&cropToRatio=${crop}`),
          payload: png,
          headers: { 'content-type': 'application/octet-stream' },
        });
      const bad = await upload('SQUARE');
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors[0].field).toBe('cropToRatio');
      const res = await upload('VARIABLE');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ width: 300, height: 120 });
    });
  });

  describe('POST /users by an Admin while registration is switched off', () => {
    const body = (n: number) => ({
      email: `op${n}@plant.example`,
      username: `Operator ${n}`,
      password: 'long enough pw',
    });

    it('403 for anonymous callers and for Users', async () => {
      for (const token of [undefined, user.token, author.token]) {
        const res = await t.as(token, { method: 'POST', url: api('/users'), payload: body(0) });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: true, message: 'Registration is disabled on this site' });
      }
    });

    it('201 for an Admin, with the new user and a token that works', async () => {
      const res = await t.as(admin.token, { method: 'POST', url: api('/users'), payload: body(1) });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ username: 'Operator 1', email: 'op1@plant.example' });
      const me = await t.as(res.json().authToken, { method: 'GET', url: api('/user') });
      expect(me.json()).toMatchObject({ userid: res.json().userid, email: 'op1@plant.example' });
    });
  });
});
