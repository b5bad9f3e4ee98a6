/**
 * A small EXIF (TIFF) reader for the fields worth showing. GPS and maker notes are deliberately not read:
 * `exif` is public in GET /media/images, and a photo's location is personal.
 */

type ExifValue = string | number;

const IFD0_TAGS: Record<number, string> = {
  0x010f: 'Make',
  0x0110: 'Model',
  0x0112: 'Orientation',
  0x011a: 'XResolution',
  0x011b: 'YResolution',
  0x0128: 'ResolutionUnit',
  0x0131: 'Software',
  0x0132: 'DateTime',
};

const EXIF_TAGS: Record<number, string> = {
  0x829a: 'ExposureTime',
  0x829d: 'FNumber',
  0x8822: 'ExposureProgram',
  0x8827: 'ISOSpeedRatings',
  0x9003: 'DateTimeOriginal',
  0x9004: 'DateTimeDigitized',
  0x9201: 'ShutterSpeedValue',
  0x9202: 'ApertureValue',
  0x9204: 'ExposureBiasValue',
  0x9207: 'MeteringMode',
  0x9209: 'Flash',
  0x920a: 'FocalLength',
  0xa002: 'PixelXDimension',
  0xa003: 'PixelYDimension',
  0xa405: 'FocalLengthIn35mmFilm',
  0xa434: 'LensModel',
};

const EXIF_IFD_POINTER = 0x8769;
const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8 };
const MAX_STRING = 128;

/** Reads the EXIF block sharp reports (`metadata().exif`, starting "Exif\0\0" or directly with the TIFF header). */
export function parseExif(block: Buffer | undefined): Record<string, ExifValue> {
  const out: Record<string, ExifValue> = {};
  if (!block || block.length < 8) return out;
  const tiff = block.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? block.subarray(6) : block;
  if (tiff.length < 8) return out;
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') return out;
  const le = order === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const i32 = (at: number) => (le ? tiff.readInt32LE(at) : tiff.readInt32BE(at));
  if (u16(2) !== 42) return out;

  const readValue = (type: number, count: number, valueAt: number): ExifValue | undefined => {
    const size = (TYPE_SIZES[type] ?? 0) * count;
    if (!size) return undefined;
    const at = size <= 4 ? valueAt : u32(valueAt);
    if (at + size > tiff.length) return undefined;
    switch (type) {
      case 2: {
        const text = tiff
          .subarray(at, at + Math.min(count, MAX_STRING))
          .toString('latin1')
          .replace(/\0[\s\S]*$/, '')
          .trim();
        return text || undefined;
      }
      case 1:
      case 7:
        return count === 1 ? tiff[at] : undefined;
      case 3:
        return u16(at);
      case 4:
        return u32(at);
      case 9:
        return i32(at);
      case 5:
      case 10: {
        const numerator = type === 5 ? u32(at) : i32(at);
        const denominator = type === 5 ? u32(at + 4) : i32(at + 4);
        if (denominator === 0) return undefined;
        return Math.round((numerator / denominator) * 1e6) / 1e6;
      }
      default:
        return undefined;
    }
  };

  const readIfd = (start: number, names: Record<number, string>): number | undefined => {
    if (start + 2 > tiff.length) return undefined;
    const count = u16(start);
    let exifPointer: number | undefined;
    for (let i = 0; i < count && i < 512; i += 1) {
      const entry = start + 2 + i * 12;
      if (entry + 12 > tiff.length) break;
      const tag = u16(entry);
      if (tag === EXIF_IFD_POINTER) {
        exifPointer = u32(entry + 8);
        continue;
      }
      const name = names[tag];
      if (!name) continue;
      const value = readValue(u16(entry + 2), u32(entry + 4), entry + 8);
      if (value !== undefined) out[name] = value;
    }
    return exifPointer;
  };

  try {
    const exifIfd = readIfd(u32(4), IFD0_TAGS);
    if (exifIfd !== undefined) readIfd(exifIfd, EXIF_TAGS);
  } catch {
    // A truncated or malformed block keeps what was read so far.
  }
  return out;
}
