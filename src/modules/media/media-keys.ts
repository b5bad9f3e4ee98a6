import { randomInt } from 'node:crypto';

const GUID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const GUID_PATTERN = /^[A-Za-z0-9]{16}$/;

/** A new 16-character guid (95 bits of randomness). */
export function newGuid(): string {
  let guid = '';
  for (let i = 0; i < 16; i += 1) guid += GUID_ALPHABET[randomInt(GUID_ALPHABET.length)];
  return guid;
}

export type MediaRef = { id: number } | { guid: string } | undefined;

/**
 * An `{id or guid}` path value: all digits and shorter than 16 characters is an id, 16 letters/digits a
 * guid, anything else matches nothing (404).
 */
export function parseMediaRef(value: string): MediaRef {
  if (/^\d{1,15}$/.test(value)) {
    const id = Number(value);
    return id >= 1 && id <= 2147483647 ? { id } : undefined;
  }
  return GUID_PATTERN.test(value) ? { guid: value } : undefined;
}

const shard = (guid: string) => guid.slice(0, 2);

export const imageKey = (guid: string, variant: string, ext: string) =>
  `images/${shard(guid)}/${guid}.${variant}.${ext}`;
/** Where an image upload waits for its variants (not served). */
export const uploadKey = (guid: string) => `uploads/${shard(guid)}/${guid}.source`;
export const videoKey = (guid: string, ext: string) => `videos/${shard(guid)}/${guid}.${ext}`;

/** The file keeps a readable name for downloads: letters, digits, `.`, `-`, `_` of the uploaded name. */
export function documentKey(guid: string, filename: string, ext: string): string {
  const stem =
    filename
      .replace(/\.[^.]*$/, '')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '')
      .slice(0, 80) || 'document';
  return `documents/${shard(guid)}/${guid}/${stem}.${ext}`;
}
