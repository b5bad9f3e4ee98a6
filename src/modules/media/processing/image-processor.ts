import sharp, { type Sharp } from 'sharp';
import { unprocessable } from '../../../common/http/api-errors';
import { parseExif } from './exif';
import { sniffImage, type ImageFormat } from './file-types';
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

const undecodable = () => unprocessable('The file could not be read as an image', 'file');

/**
 * Checks an upload by content (JPEG, PNG, GIF, WebP), applies its EXIF orientation, optionally crops it
 * to a ratio, and encodes every size variant. Throws 422 for anything that is not a readable image of at
 * least 50×50 pixels within the pixel limit.
 */
export async function processImage(data: Buffer, options: ProcessOptions): Promise<ProcessedImage> {
  if (!data.length) throw unprocessable('The request body is empty', 'file');
  const type = sniffImage(data);
  if (!type) throw unprocessable('Unsupported image type: expected JPEG, PNG, GIF or WebP', 'file');
  const input = { limitInputPixels: options.maxPixels, autoOrient: true, failOn: 'error' as const };

  let metadata: sharp.Metadata;
  try {
    // Reads the header only; the pixel limit is checked below, with a clearer message than sharp's.
    metadata = await sharp(data, { ...input, limitInputPixels: false }).metadata();
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

  const base = sharp(data, input);
  if (region) base.extract(region);
  const variantFormat = VARIANT_FORMAT[type.format];
  const keepOriginalBytes =
    !region && (metadata.orientation ?? 1) === 1 && !metadata.exif && !metadata.xmp && !metadata.iptc;
  try {
    const outputs = await Promise.all([
      keepOriginalBytes ? Promise.resolve(data) : ORIGINAL_ENCODE[type.format](base.clone()).toBuffer(),
      ...IMAGE_VARIANTS.map((spec) =>
        variantFormat
          .encode(
            base.clone().resize(spec.width, spec.height, { fit: spec.fit, withoutEnlargement: spec.fit === 'inside' }),
          )
          .toBuffer(),
      ),
    ]);
    const files = new Map<string, Buffer>([[ORIGINAL, outputs[0]]]);
    IMAGE_VARIANTS.forEach((spec, index) => files.set(spec.name, outputs[index + 1]));
    return {
      mime: type.mime,
      originalExt: type.ext,
      variantExt: variantFormat.ext,
      width,
      height,
      ratio: classifyRatio(width, height),
      exif: parseExif(metadata.exif),
      files,
    };
  } catch {
    throw undecodable();
  }
}
