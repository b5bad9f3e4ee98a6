import { ImagesRepository } from '../../src/modules/media/images.repository';
import { MediaStorage } from '../../src/modules/media/storage/media-storage';
import { JobRunner } from '../../src/platform/jobs/job-runner';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { ImageEntity } from '../../src/modules/media/entities/image.entity';
import { MediaService } from '../../src/modules/media/media.module';
import { MediaUsageService } from '../../src/modules/media/media-usage.service';
import {
  getFile,
  multipartBody,
  rotatedJpegWithExif,
  solidImage,
  tempMediaDir,
  uploadImage,
} from '../factories/media.factory';
import { createUser } from '../factories/user.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

const API = '/api/2.0';
const VARIANTS = [
  'mini',
  'thumbnail',
  '140x105',
  '200x150',
  'standard',
  '440x330',
  'medium',
  'large',
  'huge',
  'original',
];

/** Every file under MEDIA_DIR, relative. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

function expectedImage(id: number, guid: string, ext: string, originalExt = ext): Record<string, unknown> {
  const base = `http://guides.test/api/2.0/media/files/images/${guid.slice(0, 2)}/${guid}`;
  const urls: [string, unknown][] = VARIANTS.map((v) => [v, `${base}.${v}.${v === 'original' ? originalExt : ext}`]);
  return Object.fromEntries<unknown>([['id', id], ['guid', guid], ...urls]);
}

describe('media: images', () => {
  let t: TestApp;
  let mediaDir: string;
  let owner: { token: string; userid: number };
  let other: { token: string; userid: number };

  beforeAll(async () => {
    mediaDir = tempMediaDir();
    t = await createTestApp({ env: { MEDIA_DIR: mediaDir } });
    const a = await createUser(t);
    const b = await createUser(t);
    owner = { token: a.token, userid: a.user.userid };
    other = { token: b.token, userid: b.user.userid };
  });
  afterAll(() => t.close());

  describe('POST /user/media/images', () => {
    it('needs authentication', async () => {
      const res = await uploadImage(t, undefined, await solidImage(60, 60));
      expect(res.statusCode).toBe(401);
    });

    it('rejects an empty body, a missing name, and content that is not a supported image (422)', async () => {
      const before = filesUnder(mediaDir);
      const empty = await uploadImage(t, owner.token, Buffer.alloc(0));
      expect(empty.statusCode).toBe(422);
      expect(empty.json()).toEqual({
        error: true,
        message: 'The request body is empty',
        errors: [{ message: 'The request body is empty', field: 'file' }],
      });
      const noName = await t.as(owner.token, {
        method: 'POST',
        url: `${API}/user/media/images`,
        payload: await solidImage(60, 60),
        headers: { 'content-type': 'image/png' },
      });
      expect(noName.statusCode).toBe(422);
      expect(noName.json().errors).toEqual([{ message: 'file (the file name) is required', field: 'file' }]);
      const text = await uploadImage(t, owner.token, Buffer.from('GIF89a? no, just text'), { file: 'fake.gif' });
      expect(text.statusCode).toBe(422);
      const svg = await uploadImage(t, owner.token, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), {
        file: 'x.png',
      });
      expect(svg.statusCode).toBe(422);
      expect(svg.json().message).toBe('Unsupported image type: expected JPEG, PNG, GIF or WebP');
      const tiff = await uploadImage(
        t,
        owner.token,
        await solidImage(60, 60, 'jpeg').then((j) => sharp(j).tiff().toBuffer()),
      );
      expect(tiff.statusCode).toBe(422);
      const truncated = (await solidImage(400, 300, 'png')).subarray(0, 120);
      expect((await uploadImage(t, owner.token, truncated)).statusCode).toBe(422);
      expect(filesUnder(mediaDir)).toEqual(before);
    });

    it('rejects images under 50×50 and crops that would be (422)', async () => {
      const small = await uploadImage(t, owner.token, await solidImage(49, 200));
      expect(small.statusCode).toBe(422);
      expect(small.json().message).toBe('The image must be at least 50×50 pixels');
      const thin = await uploadImage(t, owner.token, await solidImage(200, 60), { cropToRatio: 'FOUR_THREE' });
      expect(thin.statusCode).toBe(200);
      const tooThin = await uploadImage(t, owner.token, await solidImage(60, 200), { cropToRatio: 'FOUR_THREE' });
      expect(tooThin.statusCode).toBe(422);
      const badRatio = await uploadImage(t, owner.token, await solidImage(60, 60), { cropToRatio: 'SIXTEEN_NINE' });
      expect(badRatio.statusCode).toBe(422);
      expect(badRatio.json().errors[0].field).toBe('cropToRatio');
    });

    it('stores a PNG with every variant and answers the Image detail', async () => {
      const res = await uploadImage(t, owner.token, await solidImage(800, 600), { file: 'board.png' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        image: expectedImage(body.image.id, body.image.guid, 'png'),
        srcid: null,
        width: 800,
        height: 600,
        ratio: 'FOUR_THREE',
        markup: null,
        exif: { FileName: 'board.png' },
      });
      expect(body.image.guid).toMatch(/^[A-Za-z0-9]{16}$/);
      const sizes: Record<string, [number, number]> = {
        mini: [56, 42],
        thumbnail: [96, 72],
        '140x105': [140, 105],
        '200x150': [200, 150],
        standard: [300, 225],
        '440x330': [440, 330],
        medium: [592, 444],
        large: [800, 600],
        huge: [800, 600],
        original: [800, 600],
      };
      for (const [variant, [width, height]] of Object.entries(sizes)) {
        const file = await getFile(t, body.image[variant]);
        expect(file.statusCode).toBe(200);
        expect(file.headers['content-type']).toBe('image/png');
        expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        const meta = await sharp(file.rawPayload).metadata();
        expect([variant, meta.width, meta.height]).toEqual([variant, width, height]);
      }
    });

    it('applies EXIF orientation and records camera fields, never GPS', async () => {
      const res = await uploadImage(t, owner.token, await rotatedJpegWithExif(), { file: 'IMG_0001.JPG' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect([body.width, body.height, body.ratio]).toEqual([60, 80, 'VARIABLE']);
      expect(body.exif).toEqual({
        FileName: 'IMG_0001.JPG',
        Make: 'TestCam',
        Model: 'Model 7',
        Software: 'unit',
        Orientation: 6,
        XResolution: 25.4,
        YResolution: 25.4,
        ResolutionUnit: 2,
        PixelXDimension: 80,
        PixelYDimension: 60,
      });
      expect(body.image.original).toMatch(/\.original\.jpg$/);
      const original = await getFile(t, body.image.original);
      const meta = await sharp(original.rawPayload).metadata();
      expect([meta.width, meta.height, meta.orientation, meta.exif]).toEqual([60, 80, undefined, undefined]);
    });

    it('crops to ONE_ONE or FOUR_THREE around the centre', async () => {
      const square = await uploadImage(t, owner.token, await solidImage(300, 200, 'webp'), { cropToRatio: 'ONE_ONE' });
      expect(square.statusCode).toBe(200);
      expect([square.json().width, square.json().height, square.json().ratio]).toEqual([200, 200, 'ONE_ONE']);
      expect(square.json().image.medium).toMatch(/\.medium\.webp$/);
      const fourThree = await uploadImage(t, owner.token, await solidImage(400, 400, 'jpeg'), {
        cropToRatio: 'four_three'.toUpperCase(),
      });
      expect([fourThree.json().width, fourThree.json().height, fourThree.json().ratio]).toEqual([
        400,
        300,
        'FOUR_THREE',
      ]);
    });

    it('takes GIFs (variants as PNG, original kept) and multipart forms with the field "file"', async () => {
      const gif = await uploadImage(t, owner.token, await solidImage(64, 64, 'gif'), { file: 'anim.gif' });
      expect(gif.statusCode).toBe(200);
      expect(gif.json().image).toEqual(expectedImage(gif.json().image.id, gif.json().image.guid, 'png', 'gif'));
      const form = multipartBody('file', 'from-form.png', await solidImage(120, 90), 'image/png');
      const multi = await t.as(owner.token, {
        method: 'POST',
        url: `${API}/user/media/images`,
        payload: form.payload,
        headers: { 'content-type': form.contentType },
      });
      expect(multi.statusCode).toBe(200);
      expect(multi.json().exif).toEqual({ FileName: 'from-form.png' });
      const wrongField = multipartBody('upload', 'x.png', await solidImage(60, 60));
      const wrong = await t.as(owner.token, {
        method: 'POST',
        url: `${API}/user/media/images`,
        payload: wrongField.payload,
        headers: { 'content-type': wrongField.contentType },
      });
      expect(wrong.statusCode).toBe(422);
    });

    it('answers once the upload is stored; the original and variants appear when the render job has run', async () => {
      const res = await uploadImage(t, owner.token, await solidImage(120, 90), { renderVariants: false });
      expect(res.statusCode).toBe(200);
      const { image } = res.json();
      expect((await getFile(t, image.medium)).statusCode).toBe(404);
      expect((await getFile(t, image.original)).statusCode).toBe(404);
      const pending = filesUnder(mediaDir).filter((f) => f.includes(image.guid));
      expect(pending).toEqual([`uploads/${image.guid.slice(0, 2)}/${image.guid}.source`]);
      // The waiting upload is never served.
      expect((await t.inject({ method: 'GET', url: `${API}/media/files/${pending[0]}` })).statusCode).toBe(404);
      await t.app.get(JobRunner).drain();
      expect((await getFile(t, image.medium)).statusCode).toBe(200);
      expect((await getFile(t, image.original)).statusCode).toBe(200);
      expect(filesUnder(mediaDir).filter((f) => f.includes(image.guid))).toHaveLength(10);
    });

    it('renders at most MEDIA_RESIZE_CONCURRENCY images at once', async () => {
      const storage = t.app.get(MediaStorage);
      const get = storage.get.bind(storage);
      let running = 0;
      let peak = 0;
      const spy = jest.spyOn(storage, 'get').mockImplementation(async (key, range) => {
        if (!key.startsWith('uploads/')) return get(key, range);
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 50));
        running -= 1;
        return get(key, range);
      });
      try {
        for (let i = 0; i < 5; i += 1)
          await uploadImage(t, owner.token, await solidImage(60 + i, 60), { renderVariants: false });
        const jobs = t.app.get(JobRunner);
        jobs.poke();
        await new Promise((resolve) => setTimeout(resolve, 20));
        await jobs.drain();
      } finally {
        spy.mockRestore();
      }
      expect(peak).toBe(2);
    });

    it('refuses a truncated image at once (422), before any decoding', async () => {
      const whole = await solidImage(400, 300, 'jpeg');
      const res = await uploadImage(t, owner.token, whole.subarray(0, whole.length - 200), { file: 'cut.jpg' });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('The file could not be read as an image');
    });

    it('leaves no file behind when the row cannot be committed', async () => {
      const before = filesUnder(mediaDir);
      const spy = jest
        .spyOn(t.app.get(ImagesRepository), 'insert')
        .mockRejectedValueOnce(new Error('database went away'));
      try {
        const res = await uploadImage(t, owner.token, await solidImage(100, 100), { renderVariants: false });
        expect(res.statusCode).toBe(500);
      } finally {
        spy.mockRestore();
      }
      expect(filesUnder(mediaDir)).toEqual(before);
    });
  });

  describe('GET /media/images/{id or guid}', () => {
    it('answers 404 for unknown ids and guids and for malformed values', async () => {
      for (const value of ['999999', 'AAAAAAAAAAAAAAAA', 'not-an-id', '0', '12345678901234567']) {
        const res = await t.inject({ method: 'GET', url: `${API}/media/images/${value}` });
        expect([value, res.statusCode]).toEqual([value, 404]);
      }
    });

    it('reads any image by id or guid, for anyone', async () => {
      const uploaded = (await uploadImage(t, owner.token, await solidImage(100, 100))).json();
      const byId = await t.inject({ method: 'GET', url: `${API}/media/images/${uploaded.image.id}` });
      expect(byId.statusCode).toBe(200);
      expect(byId.json()).toEqual(uploaded);
      const byGuid = await t.as(other.token, { method: 'GET', url: `${API}/media/images/${uploaded.image.guid}` });
      expect(byGuid.json()).toEqual(uploaded);
    });
  });

  describe('GET /user/media/images', () => {
    it('needs authentication and validates its filters', async () => {
      expect((await t.inject({ method: 'GET', url: `${API}/user/media/images` })).statusCode).toBe(401);
      const bad = await t.as(owner.token, { method: 'GET', url: `${API}/user/media/images?ratio=WIDE` });
      expect(bad.statusCode).toBe(422);
      expect((await t.as(owner.token, { method: 'GET', url: `${API}/user/media/images?minWidth=-1` })).statusCode).toBe(
        422,
      );
    });

    it("lists the caller's images, newest first, filtered by ratio and minimum size, in bounded SQL", async () => {
      const { token, user } = await createUser(t);
      const a = (await uploadImage(t, token, await solidImage(100, 100))).json();
      const b = (await uploadImage(t, token, await solidImage(400, 300))).json();
      const c = (await uploadImage(t, token, await solidImage(500, 200))).json();
      await uploadImage(t, other.token, await solidImage(100, 100));
      const all = await t.as(token, { method: 'GET', url: `${API}/user/media/images` });
      expect(all.json()).toEqual([c, b, a]);
      expect(sqlCount(all)).toBeLessThanOrEqual(3);
      const list = async (query: string): Promise<number[]> =>
        (await t.as(token, { method: 'GET', url: `${API}/user/media/images?${query}` }))
          .json<{ image: { id: number } }[]>()
          .map((i) => i.image.id);
      expect(await list('ratio=ONE_ONE')).toEqual([a.image.id]);
      expect(await list('ratio=four_three')).toEqual([b.image.id]);
      expect(await list('ratio=VARIABLE')).toEqual([c.image.id]);
      expect(await list('ratio=ALL&minWidth=400')).toEqual([c.image.id, b.image.id]);
      expect(await list('minHeight=300')).toEqual([b.image.id]);
      expect(await list('offset=1&limit=1')).toEqual([b.image.id]);
      expect(user.userid).toBeGreaterThan(0);
    });
  });

  describe('POST /user/media/images/{id or guid} (copy)', () => {
    it('needs authentication; unknown images are 404', async () => {
      expect((await t.inject({ method: 'POST', url: `${API}/user/media/images/1` })).statusCode).toBe(401);
      expect((await t.as(owner.token, { method: 'POST', url: `${API}/user/media/images/999999` })).statusCode).toBe(
        404,
      );
    });

    it("copies anyone's image, files included, into the caller's media manager", async () => {
      const source = (await uploadImage(t, owner.token, await solidImage(120, 90), { file: 'src.png' })).json();
      const res = await t.as(other.token, { method: 'POST', url: `${API}/user/media/images/${source.image.guid}` });
      expect(res.statusCode).toBe(200);
      const copy = res.json();
      expect(copy).toEqual({
        image: expectedImage(copy.image.id, copy.image.guid, 'png'),
        srcid: source.image.id,
        width: 120,
        height: 90,
        ratio: 'FOUR_THREE',
        markup: null,
        exif: { FileName: 'src.png' },
      });
      expect(copy.image.guid).not.toBe(source.image.guid);
      expect((await getFile(t, copy.image.large)).statusCode).toBe(200);
      const mine = await t.as(other.token, { method: 'GET', url: `${API}/user/media/images?limit=1` });
      expect(mine.json()).toEqual([copy]);
    });
  });

  describe('DELETE /user/media/images/{ids}', () => {
    it('needs authentication and a list of ids (422)', async () => {
      expect((await t.inject({ method: 'DELETE', url: `${API}/user/media/images/1` })).statusCode).toBe(401);
      const bad = await t.as(owner.token, { method: 'DELETE', url: `${API}/user/media/images/1,abc` });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual([{ message: '"abc" is not an image id', field: 'imageids', index: 1 }]);
      const empty = await t.as(owner.token, { method: 'DELETE', url: `${API}/user/media/images/,,` });
      expect(empty.statusCode).toBe(422);
    });

    it("deletes unused images with their files, skips what is not the caller's, and keeps used ones readable", async () => {
      const unused = (await uploadImage(t, owner.token, await solidImage(100, 100))).json();
      const used = (await uploadImage(t, owner.token, await solidImage(100, 100))).json();
      const othersImage = (await uploadImage(t, other.token, await solidImage(100, 100))).json();
      await t.app.get(MediaService).setUsage('guide', 7, [used.image.id]);
      const res = await t.as(owner.token, {
        method: 'DELETE',
        url: `${API}/user/media/images/${unused.image.id},${used.image.guid},${othersImage.image.id},999999`,
      });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await t.inject({ method: 'GET', url: `${API}/media/images/${unused.image.id}` })).statusCode).toBe(404);
      expect((await getFile(t, unused.image.original)).statusCode).toBe(404);
      expect(filesUnder(mediaDir).filter((f) => f.includes(unused.image.guid))).toEqual([]);
      expect((await t.inject({ method: 'GET', url: `${API}/media/images/${used.image.id}` })).json()).toEqual(used);
      expect((await t.inject({ method: 'GET', url: `${API}/media/images/${othersImage.image.id}` })).statusCode).toBe(
        200,
      );
      const mine = (await t.as(owner.token, { method: 'GET', url: `${API}/user/media/images?limit=200` })).json();
      expect(mine.map((i: { image: { id: number } }) => i.image.id)).not.toContain(used.image.id);

      // The guide stops using it: the image is collected with its files.
      await t.app.get(MediaService).setUsage('guide', 7, []);
      await t.app.get(MediaUsageService).flush();
      expect((await t.inject({ method: 'GET', url: `${API}/media/images/${used.image.id}` })).statusCode).toBe(404);
      expect(filesUnder(mediaDir).filter((f) => f.includes(used.image.guid))).toEqual([]);
      expect(await t.dataSource.getRepository(ImageEntity).countBy({ imageid: used.image.id })).toBe(0);
    });
  });

  it('keeps rows and files consistent: every row has its 10 files and no file lacks a row', async () => {
    const rows = await t.app.get(DataSource).getRepository(ImageEntity).find();
    const guids = new Set(rows.map((row) => row.guid));
    const files = filesUnder(mediaDir).filter((f) => f.startsWith('images/'));
    expect(files.length).toBe(rows.length * 10);
    expect(files.every((f) => guids.has(f.split('/')[2].slice(0, 16)))).toBe(true);
  });
});
