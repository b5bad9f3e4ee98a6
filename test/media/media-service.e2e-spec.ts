import sharp from 'sharp';
import { DemoSeedRegistry } from '../../src/database/seed/demo-seed.registry';
import { TransactionService } from '../../src/database/transaction.service';
import { MediaUsageEntity } from '../../src/modules/media/entities/media-usage.entity';
import { MediaDemoSeed } from '../../src/modules/media/media-demo.seed';
import { MediaUsageService } from '../../src/modules/media/media-usage.service';
import { MediaService } from '../../src/modules/media/media.module';
import { WikiTextService } from '../../src/modules/wikitext/wikitext.service';
import { solidImage, tempMediaDir, uploadImage } from '../factories/media.factory';
import { createUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

/** The interface other modules code against. */
describe('MediaService (for other modules)', () => {
  let t: TestApp;
  let media: MediaService;
  let owner: { token: string; userid: number };
  let other: { token: string; userid: number };
  let imageid: number;
  let image: Record<string, unknown>;

  beforeAll(async () => {
    t = await createTestApp({ env: { MEDIA_DIR: tempMediaDir() } });
    media = t.app.get(MediaService);
    const a = await createUser(t);
    const b = await createUser(t);
    owner = { token: a.token, userid: a.user.userid };
    other = { token: b.token, userid: b.user.userid };
    const uploaded = (await uploadImage(t, owner.token, await solidImage(100, 100))).json();
    imageid = uploaded.image.id;
    image = uploaded.image;
  });
  afterAll(() => t.close());

  it('imageObjects: id -> Image object for known ids, in one query', async () => {
    const objects = await media.imageObjects([imageid, 987654, imageid]);
    expect([...objects.entries()]).toEqual([[imageid, image]]);
    expect((await media.imageObjects([])).size).toBe(0);
  });

  it('defaultAvatar: id 0 and the default-avatar PNG at every size', () => {
    const url = (size: string) => `http://guides.test/api/2.0/media/placeholders/avatar.${size}.png`;
    expect(media.defaultAvatar()).toEqual({
      id: 0,
      guid: 'defaultavatar000',
      mini: url('mini'),
      thumbnail: url('thumbnail'),
      '140x105': url('140x105'),
      '200x150': url('200x150'),
      standard: url('standard'),
      '440x330': url('440x330'),
      medium: url('medium'),
      large: url('large'),
      huge: url('huge'),
      original: url('original'),
    });
  });

  it('every default-avatar and placeholder URL answers a PNG of its size (clients keep them offline)', async () => {
    const urls = [...Object.values(media.defaultAvatar()), media.noImageUrl('standard'), media.noImageUrl('mini')];
    const sizes = { mini: [56, 42], thumbnail: [96, 72], standard: [300, 225], original: [800, 600] } as const;
    for (const url of urls.filter((value): value is string => typeof value === 'string' && value.startsWith('http'))) {
      expect(url).toMatch(/\.png$/);
      const res = await t.inject({ method: 'GET', url: new URL(url).pathname });
      expect({ url, status: res.statusCode, type: res.headers['content-type'] }).toEqual({
        url,
        status: 200,
        type: 'image/png',
      });
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.format).toBe('png');
      const size = sizes[/\.(\w+)\.png$/.exec(url)![1] as keyof typeof sizes];
      if (size) expect([meta.width, meta.height]).toEqual(size);
    }
  });

  it("assertImagesUsableBy: 404 unknown, 403 not in the user's media manager", async () => {
    await expect(media.assertImagesUsableBy(owner.userid, [imageid])).resolves.toBeUndefined();
    await expect(media.assertImagesUsableBy(owner.userid, [imageid, 987654])).rejects.toMatchObject({ status: 404 });
    await expect(media.assertImagesUsableBy(other.userid, [imageid])).rejects.toMatchObject({
      status: 403,
      response: { error: true, message: `Image ${imageid} is not in your media manager` },
    });
  });

  it('documentObjects and assertDocumentsUsableBy', async () => {
    const res = await t.as(owner.token, {
      method: 'POST',
      url: '/api/2.0/user/media/documents?file=a.pdf',
      payload: Buffer.from('%PDF-1.7\n%%EOF'),
    });
    const doc = res.json();
    expect([...(await media.documentObjects([doc.documentid, 5555])).entries()]).toEqual([[doc.documentid, doc]]);
    await expect(media.assertDocumentsUsableBy(owner.userid, [doc.documentid])).resolves.toBeUndefined();
    await expect(media.assertDocumentsUsableBy(other.userid, [doc.documentid])).rejects.toMatchObject({ status: 403 });
    await expect(media.assertDocumentsUsableBy(owner.userid, [5555])).rejects.toMatchObject({ status: 404 });
  });

  it("setUsage replaces an owner's set, ignores unknown ids, and rolls back with the caller's transaction", async () => {
    const usage = t.dataSource.getRepository(MediaUsageEntity);
    await media.setUsage('step', 1, [imageid, 424242]);
    expect(await usage.findBy({ ownerKind: 'step', ownerId: 1 })).toEqual([{ ownerKind: 'step', ownerId: 1, imageid }]);
    await expect(
      t.app.get(TransactionService).run(async () => {
        await media.setUsage('step', 1, []);
        throw new Error('the guide save failed');
      }),
    ).rejects.toThrow('the guide save failed');
    expect(await usage.countBy({ ownerKind: 'step', ownerId: 1 })).toBe(1);
    await media.setUsage('step', 1, []);
    expect(await usage.countBy({ ownerKind: 'step', ownerId: 1 })).toBe(0);
    await t.app.get(MediaUsageService).flush();
    // still in the owner's media manager: not collected
    expect((await t.inject({ method: 'GET', url: `/api/2.0/media/images/${imageid}` })).statusCode).toBe(200);
    await expect(media.setUsage('Bad Kind', 1, [])).rejects.toThrow('Invalid media owner kind');
  });

  it('renders [image|id] and [document|id] in wiki text with real URLs', async () => {
    const res = await t.as(owner.token, {
      method: 'POST',
      url: '/api/2.0/user/media/documents?file=manual.pdf',
      payload: Buffer.from('%PDF-1.7\n%%EOF'),
    });
    const doc = res.json();
    const rendered = await t.app
      .get(WikiTextService)
      .render(`[image|${imageid}|size=medium]\n\nSee [document|${doc.documentid}|the manual].`);
    expect(rendered.rendered).toContain(`src="${image.medium as string}"`);
    expect(rendered.rendered).toContain(`href="${doc.download_url}"`);
  });

  it("demo seed: generated pictures in the first users' media managers, listed by imageIdsOf", async () => {
    t.app.get(DemoSeedRegistry).share('demo.userids', [owner.userid, other.userid]);
    await t.app.get(MediaDemoSeed).run();
    const ids = await media.imageIdsOf(owner.userid);
    expect(ids.length).toBe(4); // 3 of the 6 demo pictures, and the one uploaded above
    const objects = await media.imageObjects(ids);
    expect(objects.size).toBe(4);
    expect((await media.imageIdsOf(other.userid)).length).toBe(3);
    const detail = await t.inject({ method: 'GET', url: `/api/2.0/media/images/${ids[0]}` });
    expect([detail.json().width, detail.json().height, detail.json().ratio]).toEqual([1200, 900, 'FOUR_THREE']);
  });
});
