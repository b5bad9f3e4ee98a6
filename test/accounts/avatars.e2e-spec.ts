import { solidImage, tempMediaDir } from '../factories/media.factory';
import { createUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

describe('avatars (users × media)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { MEDIA_DIR: tempMediaDir() } });
  });
  afterAll(() => t.close());

  const upload = async (token: string) => {
    const res = await t.as(token, {
      method: 'POST',
      url: '/api/2.0/user/media/images?file=me.png',
      payload: await solidImage(120, 120),
      headers: { 'content-type': 'image/png' },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ image: { id: number; guid: string } }>().image;
  };

  it("refuses an image from someone else's media manager with 403", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const image = await upload(owner.token);
    const res = await t.as(other.token, {
      method: 'PATCH',
      url: `/api/2.0/users/${other.user.userid}`,
      payload: { image: image.id },
    });
    expect(res.statusCode).toBe(403);
  });

  it('shows the chosen image as the avatar everywhere, and keeps it while in use', async () => {
    const { user, token } = await createUser(t);
    const image = await upload(token);
    const res = await t.as(token, {
      method: 'PATCH',
      url: `/api/2.0/users/${user.userid}`,
      payload: { image: image.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().image).toMatchObject({
      id: image.id,
      guid: image.guid,
      original: expect.stringContaining('http://guides.test/'),
    });
    const listed = (await t.inject({ method: 'GET', url: '/api/2.0/users?limit=200' })).json<
      { userid: number; image: { id: number } }[]
    >();
    expect(listed.find((u) => u.userid === user.userid)?.image.id).toBe(image.id);
    // removing it from the media manager must not delete an image a user still uses
    expect((await t.as(token, { method: 'DELETE', url: `/api/2.0/user/media/images/${image.id}` })).statusCode).toBe(
      204,
    );
    expect((await t.inject({ method: 'GET', url: `/api/2.0/media/images/${image.id}` })).statusCode).toBe(200);
    const reset = await t.as(token, {
      method: 'PATCH',
      url: `/api/2.0/users/${user.userid}`,
      payload: { image: null },
    });
    expect(reset.json().image.id).toBe(0);
  });
});
