import { Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { PLACEHOLDER_KINDS, type PlaceholderKind } from './media-mappers';
import { IMAGE_VARIANTS, ORIGINAL } from './processing/image-variants';

const SIZES = new Map<string, { width: number; height: number }>([
  ...IMAGE_VARIANTS.map((v) => [v.name, { width: v.width, height: v.height }] as const),
  [ORIGINAL, { width: 800, height: 600 }],
]);

/**
 * The "no image" pictures (documents have no thumbnail, ITEM pages may have no image) and the default avatar, as
 * PNG: clients that keep images offline expect raster files. Drawn once per size (by sharp, off the event loop)
 * and kept in memory.
 */
@Injectable()
export class PlaceholderImages {
  private readonly cache = new Map<string, Promise<Buffer>>();

  /** `<kind>.<variant>.png`; undefined for any other name. */
  render(name: string): Promise<Buffer | undefined> {
    const match = /^([a-z-]+)\.([a-z0-9]+)\.png$/.exec(name);
    const kind = match?.[1] as PlaceholderKind | undefined;
    const size = match ? SIZES.get(match[2]) : undefined;
    if (!kind || !size || !(PLACEHOLDER_KINDS as readonly string[]).includes(kind)) return Promise.resolve(undefined);
    let png = this.cache.get(name);
    if (!png) {
      png = draw(kind, size);
      this.cache.set(name, png);
    }
    return png;
  }
}

const PICTURES: Record<PlaceholderKind, string> = {
  'no-image':
    '<rect width="120" height="90" fill="#e5e7ea"/><rect x="38" y="28" width="44" height="34" rx="3" fill="none" ' +
    'stroke="#b8bec6" stroke-width="3"/><circle cx="50" cy="39" r="4" fill="#b8bec6"/>' +
    '<path d="M41 59 L55 45 L63 53 L68 48 L79 59 Z" fill="#b8bec6"/>',
  avatar:
    '<rect width="120" height="90" fill="#9e9e9e"/><circle cx="60" cy="36" r="16" fill="#eeeeee"/>' +
    '<path d="M30 90 C30 66 44 56 60 56 C76 56 90 66 90 90 Z" fill="#eeeeee"/>',
};

function draw(kind: PlaceholderKind, size: { width: number; height: number }): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}" viewBox="0 0 120 90">` +
    `${PICTURES[kind]}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
