import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { S3StorageOptions } from '../media-options';
import { contentTypeOf, IMMUTABLE_CACHE, isValidMediaKey, MediaStorage, type StoredObject } from './media-storage';

/** Objects in an S3-compatible bucket (AWS, MinIO, Ceph, R2…), under an optional key prefix. */
export class S3MediaStorage extends MediaStorage {
  constructor(
    private readonly client: Pick<S3Client, 'send'>,
    private readonly options: Pick<S3StorageOptions, 'bucket' | 'prefix'>,
  ) {
    super();
  }

  static create(options: S3StorageOptions): S3MediaStorage {
    const client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
    });
    return new S3MediaStorage(client, options);
  }

  private objectKey(key: string): string {
    if (!isValidMediaKey(key)) throw new Error(`Invalid media key: ${key}`);
    return `${this.options.prefix}${key}`;
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.objectKey(key),
        Body: data,
        ContentType: contentType,
        CacheControl: IMMUTABLE_CACHE,
      }),
    );
  }

  async get(key: string, range?: { start: number; end?: number }): Promise<StoredObject | undefined> {
    try {
      const result = await this.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
        }),
      );
      const length = Number(result.ContentLength ?? 0);
      const match = /bytes (\d+)-(\d+)\/(\d+)/.exec(result.ContentRange ?? '');
      return {
        body: result.Body instanceof Readable ? result.Body : Readable.from([]),
        length,
        totalSize: match ? Number(match[3]) : length,
        range: match ? { start: Number(match[1]), end: Number(match[2]) } : undefined,
      };
    } catch (error) {
      if (
        error instanceof S3ServiceException &&
        (error.name === 'NoSuchKey' || error.$metadata?.httpStatusCode === 404)
      ) {
        return undefined;
      }
      if (error instanceof S3ServiceException && error.$metadata?.httpStatusCode === 416) {
        return this.get(key);
      }
      throw error;
    }
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.options.bucket,
        Key: this.objectKey(toKey),
        CopySource: encodeURIComponent(`${this.options.bucket}/${this.objectKey(fromKey)}`),
        ContentType: contentTypeOf(toKey),
        CacheControl: IMMUTABLE_CACHE,
        MetadataDirective: 'REPLACE',
      }),
    );
  }

  async delete(allKeys: string[]): Promise<void> {
    const keys = allKeys.filter(isValidMediaKey);
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      if (!chunk.length) continue;
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.options.bucket,
          Delete: { Objects: chunk.map((key) => ({ Key: this.objectKey(key) })), Quiet: true },
        }),
      );
    }
  }
}
