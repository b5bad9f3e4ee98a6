import sharp from 'sharp';
import { parseExif } from './exif';

describe('parseExif', () => {
  it('reads camera fields and skips GPS', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'Acme', Model: 'X1' },
        IFD2: { ExposureTime: '1/125', FNumber: '28/10', DateTimeOriginal: '2024:01:02 03:04:05' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '1/1 2/1 3/1' },
      })
      .toBuffer();
    const exif = parseExif((await sharp(jpeg).metadata()).exif);
    expect(exif).toMatchObject({
      Make: 'Acme',
      Model: 'X1',
      ExposureTime: 0.008,
      FNumber: 2.8,
      DateTimeOriginal: '2024:01:02 03:04:05',
    });
    expect(Object.keys(exif).some((k) => k.startsWith('GPS'))).toBe(false);
  });

  it('answers {} for nothing, garbage and truncated blocks', () => {
    expect(parseExif(undefined)).toEqual({});
    expect(parseExif(Buffer.from('Exif\0\0garbage!'))).toEqual({});
    const header = Buffer.from([0x49, 0x49, 42, 0, 8, 0, 0, 0, 5, 0]); // claims 5 entries, has none
    expect(parseExif(header)).toEqual({});
  });
});
