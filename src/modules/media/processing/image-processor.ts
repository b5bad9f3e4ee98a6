import sharp, { type Sharp } from 'sharp';
import { unprocessable } from '../../../common/http/api-errors';
import { parseExif } from './exif';
import { isCompleteImage, sniffImage, type ImageFormat } from './file-types';
import { classifyRatio, cropRegion, IMAGE_VARIANTS, ORIGINAL, type CropRatio, type ImageRatio } from './image-variants';

export const MIN_IMAGE_SIDE = 50;

export interface ProcessedImage {
  mime: string;
  originalExt: string;
  variantExt: string;
  width: number;
  height: number;
  ratio: ImageRatio;
  exif: Record<string, string | number>;
  /** variant name (including `original`) -> encoded bytes */
  files: Map<string, Buffer>;
}

export interface ProcessOptions {
  /** Decompression-bomb guard: largest width × height accepted. */
  maxPixels: number;
  cropToRatio?: CropRatio;
  /** Smallest width and height accepted (default 50). */
  minSide?: number;
}

const VARIANT_FORMAT: Record<ImageFormat, { ext: string; encode: (s: Sharp) => Sharp }> = {
  jpeg: { ext: 'jpg', encode: (s) => s.jpeg({ quality: 85 }) },
  png: { ext: 'png', encode: (s) => s.png({ compressionLevel: 6 }) },
  webp: { ext: 'webp', encode: (s) => s.webp({ quality: 85 }) },
  gif: { ext: 'png', encode: (s) => s.png({ compressionLevel: 6 }) },
};

const ORIGINAL_ENCODE: Record<ImageFormat, (s: Sharp) => Sharp> = {
  jpeg: (s) => s.jpeg({ quality: 92 }),
  png: (s) => s.png(),
  webp: (s) => s.webp({ quality: 92 }),
  gif: (s) => s.gif(),
};

/**
 * libvips keeps recently decoded operations in a process-wide cache (default 50 MB, 100 operations, 20 open
 * files). Uploads are each decoded once, so a cache only holds on to their memory: keep it small.
 */
sharp.cache({ memory: 16, files: 0, items: 20 });

const undecodable = () => unprocessable('The file could not be read as an image', 'file');

/** What an upload's header tells, checked; enough to answer the upload before any pixel is decoded. */
export interface InspectedImage {
  format: ImageFormat;
  mime: string;
  originalExt: string;
  variantExt: string;
  /** Upright size after the EXIF orientation and the crop. */
  width: number;
  height: number;
  ratio: ImageRatio;
  exif: Record<string, string | number>;
  /** The crop to apply (cropToRatio), in upright pixels. */
  region?: { left: number; top: number; width: number; height: number };
  /** The upload can be served as the original unchanged (no orientation, no metadata, no crop). */
  keepOriginalBytes: boolean;
}

/**
 * Checks an upload by content (JPEG, PNG, GIF, WebP) from its header only: type, pixel limit, minimum
 * size, crop region. Throws 422 for anything that is not a readable image of at least 50×50 pixels within
 * the pixel limit. Cheap: decoding and resizing happen later, in `renderImage` (a background job).
 */
export async function inspectImage(data: Buffer, options: ProcessOptions): Promise<InspectedImage> {
  if (!data.length) throw unprocessable('The request body is empty', 'file');
  const type = sniffImage(data);
  if (!type) throw unprocessable('Unsupported image type: expected JPEG, PNG, GIF or WebP', 'file');
  if (!isCompleteImage(data, type.format)) throw undecodable();
  let metadata: sharp.Metadata;
  try {
    // Reads the header only; the pixel limit is checked below, with a clearer message than sharp's.
    metadata = await sharp(data, { limitInputPixels: false, autoOrient: true, failOn: 'error' }).metadata();
  } catch {
    throw undecodable();
  }
  const rotated = (metadata.orientation ?? 1) >= 5;
  const sourceWidth = (rotated ? metadata.height : metadata.width) ?? 0;
  const sourceHeight = (rotated ? metadata.width : metadata.height) ?? 0;
  if (sourceWidth * sourceHeight > options.maxPixels) {
    throw unprocessable(`The image has more than the limit of ${options.maxPixels} pixels`, 'file');
  }
  const region = options.cropToRatio ? cropRegion(sourceWidth, sourceHeight, options.cropToRatio) : undefined;
  const width = region?.width ?? sourceWidth;
  const height = region?.height ?? sourceHeight;
  const minSide = options.minSide ?? MIN_IMAGE_SIDE;
  if (width < minSide || height < minSide) {
    throw unprocessable(`The image must be at least ${minSide}×${minSide} pixels`, 'file');
  }
  return {
    format: type.format,
    mime: type.mime,
    originalExt: type.ext,
    variantExt: VARIANT_FORMAT[type.format].ext,
    width,
    height,
    ratio: classifyRatio(width, height),
    exif: parseExif(metadata.exif),
    region,
    keepOriginalBytes:
      !region && (metadata.orientation ?? 1) === 1 && !metadata.exif && !metadata.xmp && !metadata.iptc,
  };
}

/**
 * Decodes an inspected upload once per output and encodes the original and every size variant, one after
 * another so that at most one decoded image is in memory (the pixel limit bounds its size).
 */
export async function renderImage(
  data: Buffer,
  image: InspectedImage,
  maxPixels: number,
): Promise<Map<string, Buffer>> {
  const base = sharp(data, { limitInputPixels: maxPixels, autoOrient: true, failOn: 'error' });
  if (image.region) base.extract(image.region);
  const files = new Map<string, Buffer>();
  try {
    files.set(ORIGINAL, image.keepOriginalBytes ? data : await ORIGINAL_ENCODE[image.format](base.clone()).toBuffer());
    for (const spec of IMAGE_VARIANTS) {
      const resized = base
        .clone()
        .resize(spec.width, spec.height, { fit: spec.fit, withoutEnlargement: spec.fit === 'inside' });
      files.set(spec.name, await VARIANT_FORMAT[image.format].encode(resized).toBuffer());
    }
  } catch {
    throw undecodable();
  }
  return files;
}

/** Inspects and renders at once (small images made by the service itself, e.g. video thumbnails). */
export async function processImage(data: Buffer, options: ProcessOptions): Promise<ProcessedImage> {
  const image = await inspectImage(data, options);
  const files = await renderImage(data, image, options.maxPixels);
  const { mime, originalExt, variantExt, width, height, ratio, exif } = image;
  return { mime, originalExt, variantExt, width, height, ratio, exif, files };
}
