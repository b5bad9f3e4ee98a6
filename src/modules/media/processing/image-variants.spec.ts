import { classifyRatio, cropRegion, IMAGE_VARIANTS, VARIANT_NAMES } from './image-variants';

describe('image variants', () => {
  it('has the ten Image object keys', () => {
    expect(VARIANT_NAMES).toEqual([
      'mini',
      'thumbnail',
      '140x105',
      '200x150',
      'standard',
      '440x330',
      'medium',
      'large',
      'huge',
      'original',
    ]);
    for (const v of IMAGE_VARIANTS) expect(v.width * 3).toBe(v.height * 4);
  });

  it('classifies ratios within 1%', () => {
    expect(classifyRatio(100, 100)).toBe('ONE_ONE');
    expect(classifyRatio(101, 100)).toBe('ONE_ONE');
    expect(classifyRatio(800, 600)).toBe('FOUR_THREE');
    expect(classifyRatio(801, 600)).toBe('FOUR_THREE');
    expect(classifyRatio(600, 800)).toBe('VARIABLE');
    expect(classifyRatio(1920, 1080)).toBe('VARIABLE');
    expect(classifyRatio(0, 10)).toBe('VARIABLE');
  });

  it('crops the largest centred region of a ratio', () => {
    expect(cropRegion(300, 200, 'ONE_ONE')).toEqual({ left: 50, top: 0, width: 200, height: 200 });
    expect(cropRegion(200, 300, 'ONE_ONE')).toEqual({ left: 0, top: 50, width: 200, height: 200 });
    expect(cropRegion(400, 400, 'FOUR_THREE')).toEqual({ left: 0, top: 50, width: 400, height: 300 });
    expect(cropRegion(1000, 300, 'FOUR_THREE')).toEqual({ left: 300, top: 0, width: 400, height: 300 });
  });
});
