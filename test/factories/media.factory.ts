import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { JobRunner } from '../../src/platform/jobs/job-runner';
import type { TestApp } from '../utils/test-app';

export const FIXTURES = join(__dirname, '../fixtures/media');

export const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

/** A fresh MEDIA_DIR for one test file, so files written by other suites never mix in. */
export const tempMediaDir = (): string => mkdtempSync(join(tmpdir(), 'rgcs-media-'));

/** A solid-colour image. */
export function solidImage(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'gif' | 'webp' = 'png',
  background = '#3366cc',
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .toFormat(format)
    .toBuffer();
}

/**
 * A landscape 80×60 JPEG stored sideways with EXIF orientation 6 (rotate 90° clockwise to display),
 * so the upright image is 60×80; with camera fields and a GPS block that must not be recorded.
 */
export function rotatedJpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 80, height: 60, channels: 3, background: '#cc3333' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Model 7', Software: 'unit' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

export interface UploadOptions {
  /** false: leave the variants job queued (to see the state before it runs). */
  renderVariants?: boolean;
  file?: string;
  cropToRatio?: string;
  contentType?: string;
}

export async function uploadImage(t: TestApp, token: string | undefined, data: Buffer, options: UploadOptions = {}) {
  const query = new URLSearchParams();
  query.set('file', options.file ?? 'upload.png');
  if (options.cropToRatio) query.set('cropToRatio', options.cropToRatio);
  const response = await t.as(token, {
    method: 'POST',
    url: `/api/2.0/user/media/images?${query.toString()}`,
    payload: data,
    headers: { 'content-type': options.contentType ?? 'application/octet-stream' },
  });
  // The original and the size variants are made by a background job: let it run, as a client would wait.
  if (options.renderVariants !== false) await t.app.get(JobRunner).drain();
  return response;
}

/** A multipart/form-data body with one file part. */
export function multipartBody(field: string, filename: string, data: Buffer, contentType = 'application/octet-stream') {
  const boundary = `----rgcs${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Fetches a URL from an Image/Video/Document object through the app (its path after PUBLIC_URL). */
export function getFile(t: TestApp, url: string, headers: Record<string, string> = {}) {
  return t.inject({ method: 'GET', url: url.replace(t.config.publicUrl, ''), headers });
}
