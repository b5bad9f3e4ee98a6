import sharp from 'sharp';
import { ImageEntity } from '../../src/modules/media/entities/image.entity';
import { multipartBody, solidImage, tempMediaDir, uploadImage } from '../factories/media.factory';
import { createUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

/** An app with small limits: UPLOAD_LIMIT 8 KiB and MEDIA_MAX_PIXELS 10,000. */
describe('media: upload limits', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { MEDIA_DIR: tempMediaDir(), UPLOAD_LIMIT: '8192', MEDIA_MAX_PIXELS: '10000' } });
    ({ token } = await createUser(t));
  });
  afterAll(() => t.close());

  it('answers 413 beyond UPLOAD_LIMIT, for a raw body and for a multipart form, and stores nothing', async () => {
    const big = Buffer.concat([await solidImage(60, 60), Buffer.alloc(9000)]);
    const raw = await uploadImage(t, token, big);
    expect(raw.statusCode).toBe(413);
    expect(raw.json().message).toBe('Request body is larger than the limit of 8192 bytes');
    const form = multipartBody('file', 'big.png', big, 'image/png');
    const multi = await t.as(token, {
      method: 'POST',
      url: '/api/2.0/user/media/images',
      payload: form.payload,
      headers: { 'content-type': form.contentType },
    });
    expect(multi.statusCode).toBe(413);
    expect(await t.dataSource.getRepository(ImageEntity).count()).toBe(0);
  });

  it('refuses more pixels than MEDIA_MAX_PIXELS (decompression bombs) with 422, from the header alone', async () => {
    // 4000×4000 in a 1-bit palette compresses to about 2 KB: well under the byte limit.
    const bomb = await sharp({ create: { width: 4000, height: 4000, channels: 3, background: '#3366cc' } })
      .png({ palette: true, colours: 2, compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(8192);
    const res = await uploadImage(t, token, bomb);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: true,
      message: 'The image has more than the limit of 10000 pixels',
      errors: [{ message: 'The image has more than the limit of 10000 pixels', field: 'file' }],
    });
    expect((await uploadImage(t, token, await solidImage(100, 100))).statusCode).toBe(200);
  });
});
