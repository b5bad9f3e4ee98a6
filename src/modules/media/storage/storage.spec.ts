import { mkdtempSync, readFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { parseRange } from '../media-files.controller';
import { LocalMediaStorage } from './local-media-storage';
import { S3MediaStorage } from './s3-media-storage';
import { StoredFiles } from './stored-files';

const KEY = 'images/Ab/AbCdEfGhIjKlMnOp.mini.png';

describe('LocalMediaStorage', () => {
  it('writes, reads (whole and ranges), copies and deletes under its root only', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rgcs-storage-'));
    const storage = new LocalMediaStorage(root);
    await storage.put(KEY, Buffer.from('0123456789'));
    expect(readFileSync(join(root, KEY), 'utf8')).toBe('0123456789');
    expect(readdirSync(join(root, 'images/Ab'))).toEqual(['AbCdEfGhIjKlMnOp.mini.png']);
    const whole = await storage.get(KEY);
    expect([whole?.length, await text(whole!.body)]).toEqual([10, '0123456789']);
    const part = await storage.get(KEY, { start: 2, end: 4 });
    expect([part?.range, part?.length, part?.totalSize, await text(part!.body)]).toEqual([
      { start: 2, end: 4 },
      3,
      10,
      '234',
    ]);
    const beyond = await storage.get(KEY, { start: 50 });
    expect(beyond?.range).toBeUndefined();
    beyond?.body.destroy();
    await storage.copy(KEY, 'images/Zz/ZzCdEfGhIjKlMnOp.mini.png');
    expect(existsSync(join(root, 'images/Zz/ZzCdEfGhIjKlMnOp.mini.png'))).toBe(true);
    await storage.delete([KEY, 'images/Xx/missing.png']);
    expect(await storage.get(KEY)).toBeUndefined();
    expect(() => storage.pathOf('images/../../etc/passwd')).toThrow('Invalid media key');
    await expect(storage.put('../outside.png', Buffer.from('x'))).rejects.toThrow('Invalid media key');
  });
});

describe('StoredFiles', () => {
  it('removes what it wrote when a write or the database change fails', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rgcs-storage-'));
    const storage = new LocalMediaStorage(root);
    const files = new StoredFiles(storage);
    await expect(
      files.putAll([
        { key: KEY, data: Buffer.from('a'), contentType: 'image/png' },
        { key: 'bad/../key', data: Buffer.from('b'), contentType: 'image/png' },
      ]),
    ).rejects.toThrow();
    expect(existsSync(join(root, KEY))).toBe(false);
    const again = new StoredFiles(storage);
    await again.putAll([{ key: KEY, data: Buffer.from('a'), contentType: 'image/png' }]);
    await expect(again.commitWith(() => Promise.reject(new Error('rollback')))).rejects.toThrow('rollback');
    expect(existsSync(join(root, KEY))).toBe(false);
  });
});

describe('S3MediaStorage', () => {
  it('sends the right commands under the prefix, and reads a missing key as undefined', async () => {
    const sent: unknown[] = [];
    const client = {
      send: jest.fn(async (command: { input: unknown }) => {
        sent.push(command);
        if (command instanceof GetObjectCommand) {
          const error = Object.assign(new Error('NoSuchKey'), {
            name: 'NoSuchKey',
            $metadata: { httpStatusCode: 404 },
          });
          Object.setPrototypeOf(error, (await import('@aws-sdk/client-s3')).S3ServiceException.prototype);
          throw error;
        }
        return {};
      }),
    };
    const storage = new S3MediaStorage(client as never, { bucket: 'b', prefix: 'p/' });
    await storage.put(KEY, Buffer.from('x'), 'image/png');
    expect(sent[0]).toBeInstanceOf(PutObjectCommand);
    expect((sent[0] as PutObjectCommand).input).toMatchObject({
      Bucket: 'b',
      Key: `p/${KEY}`,
      ContentType: 'image/png',
      CacheControl: 'public, max-age=31536000, immutable',
    });
    expect(await storage.get(KEY)).toBeUndefined();
    await storage.delete([KEY]);
    expect((sent[2] as DeleteObjectsCommand).input).toEqual({
      Bucket: 'b',
      Delete: { Objects: [{ Key: `p/${KEY}` }], Quiet: true },
    });
    await expect(storage.put('../x', Buffer.from('x'), 'image/png')).rejects.toThrow('Invalid media key');
  });
});

describe('parseRange', () => {
  it('takes bytes=start-[end] only', () => {
    expect(parseRange('bytes=0-99')).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-')).toEqual({ start: 100, end: undefined });
    for (const other of [undefined, 'bytes=-100', 'bytes=5-1', 'bytes=0-1,5-6', 'items=0-1'])
      expect(parseRange(other)).toBeUndefined();
  });
});
