import type { Readable } from 'node:stream';

/** Media files never change under their key (a new file gets a new key). */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

export interface StoredObject {
  body: Readable;
  /** Bytes in `body` (the range's length for a range read). */
  length: number;
  /** Size of the whole object. */
  totalSize: number;
  /** The byte range served, when a range was asked for and satisfiable. */
  range?: { start: number; end: number };
}

/**
 * Where media files live: local disk under MEDIA_DIR, or an S3-compatible bucket. Keys are relative,
 * slash-separated and validated by `isValidMediaKey` (the storage never sees anything else).
 */
export abstract class MediaStorage {
  abstract put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** undefined when there is no such object. */
  abstract get(key: string, range?: { start: number; end?: number }): Promise<StoredObject | undefined>;
  abstract copy(fromKey: string, toKey: string): Promise<void>;
  /** Removes the objects; a missing one is not an error. */
  abstract delete(keys: string[]): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const MEDIA_KINDS = ['images', 'videos', 'documents', 'uploads'] as const;
/** Kinds the files route serves; `uploads` holds image uploads waiting for their variants (never served). */
export const SERVED_KINDS = ['images', 'videos', 'documents'] as const;

/** `<kind>/<2-char shard>/<name>[/<name>]`: every segment starts with a letter or digit, so no `.` or `..`. */
export function isServedMediaKey(key: string): boolean {
  return isValidMediaKey(key) && (SERVED_KINDS as readonly string[]).includes(key.split('/')[0]);
}

export function isValidMediaKey(key: string): boolean {
  if (key.length > 255) return false;
  const parts = key.split('/');
  return (
    parts.length >= 3 &&
    parts.length <= 4 &&
    (MEDIA_KINDS as readonly string[]).includes(parts[0]) &&
    parts.every((part) => SEGMENT.test(part))
  );
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  '3gp': 'video/3gpp',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  ogv: 'video/ogg',
  avi: 'video/x-msvideo',
  pdf: 'application/pdf',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
};

/** Content type of a stored file, from its key's extension (keys are built by the service, never by clients). */
export function contentTypeOf(key: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(key)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}
