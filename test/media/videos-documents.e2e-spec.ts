import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { ImageEntity } from '../../src/modules/media/entities/image.entity';
import { MediaUsageEntity } from '../../src/modules/media/entities/media-usage.entity';
import { fixture, getFile, multipartBody, tempMediaDir } from '../factories/media.factory';
import { createUser } from '../factories/user.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

const API = '/api/2.0';

function installed(command: string): boolean {
  try {
    execFileSync(command, ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const HAS_FFPROBE = installed(process.env.FFPROBE_PATH ?? 'ffprobe') && installed(process.env.FFMPEG_PATH ?? 'ffmpeg');

const upload = (t: TestApp, token: string | undefined, kind: string, data: Buffer, file = 'upload.bin') =>
  t.as(token, {
    method: 'POST',
    url: `${API}/user/media/${kind}?file=${encodeURIComponent(file)}`,
    payload: data,
    headers: { 'content-type': 'application/octet-stream' },
  });

describe('media: videos and documents', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { MEDIA_DIR: tempMediaDir() } });
    ({ token } = await createUser(t));
  });
  afterAll(() => t.close());

  describe('videos', () => {
    it('needs authentication to upload and list; rejects empty and non-video bodies (422); unknown ids 404', async () => {
      expect((await upload(t, undefined, 'videos', fixture('clip.mp4'))).statusCode).toBe(401);
      expect((await t.inject({ method: 'GET', url: `${API}/user/media/videos` })).statusCode).toBe(401);
      expect((await upload(t, token, 'videos', Buffer.alloc(0), 'a.mp4')).statusCode).toBe(422);
      const pdf = await upload(t, token, 'videos', Buffer.from('%PDF-1.4\n%%EOF'), 'a.mp4');
      expect(pdf.statusCode).toBe(422);
      expect(pdf.json().message).toBe('Unsupported video type: expected MP4, QuickTime, WebM, Matroska, Ogg or AVI');
      expect((await t.inject({ method: 'GET', url: `${API}/media/videos/424242` })).statusCode).toBe(404);
      expect(await t.dataSource.getRepository(ImageEntity).count()).toBe(0);
    });

    it('stores the upload as the ORIGINAL encoding, with metadata and a thumbnail image', async () => {
      const data = fixture('clip.mp4');
      const res = await upload(t, token, 'videos', data, 'clip.mp4');
      expect(res.statusCode).toBe(200);
      const video = res.json();
      const md5 = createHash('md5').update(data).digest('hex');
      const probed = HAS_FFPROBE
        ? {
            format: 'mov',
            duration_in_ms: 1000,
            width: 96,
            height: 64,
            video_codec: 'h264',
            audio_codec: 'aac',
            frame_rate: 10,
            audio_sample_rate: 44100,
            channels: '1',
          }
        : {
            format: 'mp4',
            duration_in_ms: 0,
            width: 0,
            height: 0,
            video_codec: '',
            audio_codec: '',
            frame_rate: 0,
            audio_sample_rate: 0,
            channels: '',
            note: 'ffprobe is not installed on this server: codecs, dimensions and duration are unknown',
          };
      expect(video).toEqual({
        videoid: video.videoid,
        guid: expect.stringMatching(/^[A-Za-z0-9]{16}$/),
        srcid: null,
        filename: 'clip.mp4',
        duration: probed.duration_in_ms,
        width: probed.width,
        height: probed.height,
        image: {
          image: expect.objectContaining({ id: expect.any(Number), guid: expect.any(String) }),
          srcid: null,
          width: HAS_FFPROBE ? 96 : 640,
          height: HAS_FFPROBE ? 64 : 360,
          ratio: 'VARIABLE',
          markup: null,
          exif: { FileName: 'clip.mp4.png' },
        },
        meta: {
          id: video.videoid,
          state: 'finished',
          file_size_in_bytes: data.length,
          md5_checksum: md5,
          video_bitrate_in_kbps: expect.any(Number),
          audio_bitrate_in_kbps: expect.any(Number),
          total_bitrate_in_kbps: expect.any(Number),
          ...probed,
        },
        encodings: [
          {
            column: 'ORIGINAL',
            label: 'Original',
            width: probed.width,
            height: probed.height,
            codecs: HAS_FFPROBE ? 'h264, aac' : '',
            mime: 'video/mp4',
            format: 'mp4',
            url: `http://guides.test/api/2.0/media/files/videos/${video.guid.slice(0, 2)}/${video.guid}.mp4`,
            always_generate: true,
          },
        ],
      });
      const file = await getFile(t, video.encodings[0].url);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('video/mp4');
      expect(file.rawPayload.equals(data)).toBe(true);
      const part = await getFile(t, video.encodings[0].url, { range: 'bytes=4-11' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 4-11/${data.length}`);
      expect(part.rawPayload.toString('latin1')).toBe(data.subarray(4, 12).toString('latin1'));
      expect((await getFile(t, video.image.image.medium)).statusCode).toBe(200);

      // The thumbnail is not in the media manager, and is kept alive by the video's usage.
      const usage = await t.dataSource.getRepository(MediaUsageEntity).findBy({ ownerKind: 'video' });
      expect(usage).toEqual([{ ownerKind: 'video', ownerId: video.videoid, imageid: video.image.image.id }]);
      const images = await t.as(token, { method: 'GET', url: `${API}/user/media/images` });
      expect(images.json()).toEqual([]);

      const byGuid = await t.inject({ method: 'GET', url: `${API}/media/videos/${video.guid}` });
      expect(byGuid.json()).toEqual(video);
      const list = await t.as(token, { method: 'GET', url: `${API}/user/media/videos?order=DESC` });
      expect(list.json()).toEqual([video]);
      expect(sqlCount(list)).toBeLessThanOrEqual(4);
    });

    it('records a video ffprobe cannot read as failed, and takes multipart forms', async () => {
      const broken = Buffer.concat([fixture('clip.mp4').subarray(0, 40), Buffer.alloc(200)]);
      const form = multipartBody('file', 'broken.mp4', broken, 'video/mp4');
      const res = await t.as(token, {
        method: 'POST',
        url: `${API}/user/media/videos`,
        payload: form.payload,
        headers: { 'content-type': form.contentType },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().filename).toBe('broken.mp4');
      expect(res.json().meta.state).toBe(HAS_FFPROBE ? 'failed' : 'finished');
      expect(res.json().image.width).toBe(640);
    });
  });

  describe('documents', () => {
    it('needs authentication; rejects empty and non-document bodies (422); unknown ids 404', async () => {
      expect((await upload(t, undefined, 'documents', fixture('report.docx'))).statusCode).toBe(401);
      expect((await t.inject({ method: 'GET', url: `${API}/user/media/documents` })).statusCode).toBe(401);
      expect((await upload(t, token, 'documents', Buffer.alloc(0), 'a.pdf')).statusCode).toBe(422);
      const zip = await upload(t, token, 'documents', fixture('archive.zip'), 'a.docx');
      expect(zip.statusCode).toBe(422);
      const html = await upload(t, token, 'documents', Buffer.from('<html><script>x</script></html>'), 'a.pdf');
      expect(html.statusCode).toBe(422);
      expect((await t.inject({ method: 'GET', url: `${API}/media/documents/9999` })).statusCode).toBe(404);
    });

    it('stores PDF and office files by content and reads them by id or guid', async () => {
      const pdfBytes = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
      const pdf = await upload(t, token, 'documents', pdfBytes, 'Torque Specs (v2).pdf');
      expect(pdf.statusCode).toBe(200);
      const doc = pdf.json();
      const url = `http://guides.test/api/2.0/media/files/documents/${doc.guid.slice(0, 2)}/${doc.guid}/Torque-Specs-v2.pdf`;
      const placeholder = (size: string) => `http://guides.test/api/2.0/media/placeholders/no-image.${size}.png`;
      expect(doc).toEqual({
        documentid: doc.documentid,
        guid: expect.stringMatching(/^[A-Za-z0-9]{16}$/),
        filename: 'Torque Specs (v2).pdf',
        title: 'Torque Specs (v2).pdf',
        size: pdfBytes.length,
        mime: 'application/pdf',
        thumbnailid: null,
        imageid: null,
        document_type: 'application/pdf',
        document_extension: 'pdf',
        document_group: 'pdf',
        standard: placeholder('standard'),
        thumbnail: placeholder('thumbnail'),
        mini: placeholder('mini'),
        download_url: url,
        url,
        date: expect.any(Number),
        summary: null,
        type: 'Document',
      });
      const file = await getFile(t, url);
      expect([file.statusCode, file.headers['content-type'], file.body]).toEqual([
        200,
        'application/pdf',
        pdfBytes.toString(),
      ]);
      const thumb = await getFile(t, doc.standard);
      expect([thumb.statusCode, thumb.headers['content-type']]).toEqual([200, 'image/png']);

      // a .pdf name does not make a docx a PDF: the content decides
      const docx = await upload(t, token, 'documents', fixture('report.docx'), 'report.pdf');
      expect(docx.statusCode).toBe(200);
      expect([docx.json().mime, docx.json().document_extension, docx.json().document_group]).toEqual([
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'docx',
        'word',
      ]);
      expect((await t.inject({ method: 'GET', url: `${API}/media/documents/${doc.guid}` })).json()).toEqual(doc);
      const mine = await t.as(token, { method: 'GET', url: `${API}/user/media/documents` });
      expect(mine.json()).toEqual([doc, docx.json()]);
    });
  });

  describe('GET /media/files/...', () => {
    it('serves nothing outside MEDIA_DIR, whatever the path says', async () => {
      for (const path of [
        'images/../../../etc/passwd',
        'images/%2e%2e/%2e%2e/etc/passwd',
        'images/..%2f..%2fetc%2fpasswd',
        'images/ab/..',
        '..%2F..%2Fetc%2Fpasswd',
        'etc/passwd',
        'images/ab/.hidden',
        'images/ab/x%00.png',
        'images/ab/c/d/e/f.png',
      ]) {
        const res = await t.inject({ method: 'GET', url: `${API}/media/files/${path}` });
        expect([path, res.statusCode]).toEqual([path, 404]);
      }
      const placeholder = await t.inject({ method: 'GET', url: `${API}/media/placeholders/..%2F..%2Fetc.png` });
      expect(placeholder.statusCode).toBe(404);
    });
  });
});
