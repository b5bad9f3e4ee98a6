/** The size variants of every image (pure data; the Image object's keys). */

export const RATIOS = ['ONE_ONE', 'FOUR_THREE', 'VARIABLE'] as const;
export type ImageRatio = (typeof RATIOS)[number];
export type CropRatio = 'ONE_ONE' | 'FOUR_THREE';

export interface VariantSpec {
  name: string;
  width: number;
  height: number;
  /** inside: fits within the box, aspect kept, never enlarged; cover: exactly the box, centre-cropped. */
  fit: 'inside' | 'cover';
}

/** Pixel sizes follow the iFixit descriptions (mini 56px … huge 1600px wide, 4:3 boxes). */
export const IMAGE_VARIANTS: readonly VariantSpec[] = [
  { name: 'mini', width: 56, height: 42, fit: 'inside' },
  { name: 'thumbnail', width: 96, height: 72, fit: 'inside' },
  { name: '140x105', width: 140, height: 105, fit: 'cover' },
  { name: '200x150', width: 200, height: 150, fit: 'cover' },
  { name: 'standard', width: 300, height: 225, fit: 'inside' },
  { name: '440x330', width: 440, height: 330, fit: 'cover' },
  { name: 'medium', width: 592, height: 444, fit: 'inside' },
  { name: 'large', width: 800, height: 600, fit: 'inside' },
  { name: 'huge', width: 1600, height: 1200, fit: 'inside' },
];

export const ORIGINAL = 'original';
export const VARIANT_NAMES = [...IMAGE_VARIANTS.map((v) => v.name), ORIGINAL];

export const VARIANTS_DESCRIPTION =
  'Size variants: mini (within 56×42), thumbnail (within 96×72), 140x105 (exactly, centre-cropped), ' +
  '200x150 (exactly, centre-cropped), standard (within 300×225), 440x330 (exactly, centre-cropped), medium ' +
  '(within 592×444), large (within 800×600), huge (within 1600×1200), original (full size, EXIF orientation ' +
  'applied, metadata stripped). "Within" keeps the aspect ratio and never enlarges. Variants of JPEG, PNG and ' +
  'WebP uploads keep their format; GIF variants are PNG of the first frame.';

const TOLERANCE = 0.01 + 1e-9;

/** ONE_ONE (1:1), FOUR_THREE (landscape 4:3), else VARIABLE; within 1%. */
export function classifyRatio(width: number, height: number): ImageRatio {
  if (width <= 0 || height <= 0) return 'VARIABLE';
  const r = width / height;
  if (Math.abs(r - 1) <= TOLERANCE) return 'ONE_ONE';
  if (Math.abs(r / (4 / 3) - 1) <= TOLERANCE) return 'FOUR_THREE';
  return 'VARIABLE';
}

export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The largest centred region of the given ratio. */
export function cropRegion(width: number, height: number, ratio: CropRatio): Region {
  const target = ratio === 'ONE_ONE' ? 1 : 4 / 3;
  if (width / height > target) {
    const w = Math.max(1, Math.round(height * target));
    return { left: Math.floor((width - w) / 2), top: 0, width: w, height };
  }
  const h = Math.max(1, Math.round(width / target));
  return { left: 0, top: Math.floor((height - h) / 2), width, height: h };
}
