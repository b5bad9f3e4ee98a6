import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractPackage, launchFile, validatePackage } from './package-validator';
import type { ZipEntrySpec } from './zip-writer';
import { dir, failure, headers, page, scorm12Manifest, write } from '../../../test/fixtures/training-packages';

describe('extractPackage and launchFile', () => {
  it('writes every file under the folder', async () => {
    const file = await write([
      { name: 'imsmanifest.xml', data: scorm12Manifest('lesson/index.html') },
      { name: 'lesson/index.html', data: page },
      { name: 'lesson/', data: '' },
    ]);
    const target = join(dir, 'out');
    const files = await extractPackage(file, target);
    expect(files.map((f) => f.path).sort()).toEqual(['imsmanifest.xml', 'lesson/index.html']);
    expect(readFileSync(join(target, 'lesson/index.html'), 'utf8')).toBe(page);
    expect(readdirSync(target).sort()).toEqual(['imsmanifest.xml', 'lesson']);
  });

  it('launchFile strips the query, decodes, and refuses escapes', () => {
    expect(launchFile('a%20b/index.html?x=1#t')).toBe('a b/index.html');
    expect(launchFile('./index.html')).toBe('index.html');
    expect(launchFile('../index.html')).toBeNull();
  });
});

describe('the import: headers checked while validating, bytes counted while extracting', () => {
  it('validatePackage with headersOnly inflates only the descriptor and still refuses what headers show', async () => {
    const file = await write([
      { name: 'imsmanifest.xml', data: scorm12Manifest() },
      { name: 'index.html', data: page },
      { name: 'big.bin', data: Buffer.alloc(300_000, 3) },
    ]);
    let inflated = 0;
    const report = await validatePackage(file, { headersOnly: true, onProgress: (n) => (inflated = n) });
    expect(inflated).toBe(Buffer.byteLength(scorm12Manifest()));
    expect(report.files).toContainEqual({ path: 'big.bin', bytes: 300_000 });
    expect(report.inflatedBytes).toBe(300_000 + page.length + Buffer.byteLength(scorm12Manifest()));
    const bomb = await write([{ name: 'zeros.bin', data: Buffer.alloc(20 * 1024 * 1024) }]);
    await expect(validatePackage(bomb, { headersOnly: true })).rejects.toMatchObject({ code: 'ZIP_BOMB' });
  });

  it('extractPackage stops a bomb whose header lies, and an archive over the limit, as they inflate', async () => {
    const size = 20 * 1024 * 1024;
    const lying = await write(
      [
        { name: 'imsmanifest.xml', data: scorm12Manifest() },
        { name: 'index.html', data: page },
        ...Array.from({ length: 8 }, (_, i) => ({ name: `a${i}.html`, data: page })),
        { name: 'zeros.bin', data: Buffer.alloc(size) },
        ...Array.from({ length: 8 }, (_, i) => ({ name: `b${i}.html`, data: page })),
      ],
      (buf) => {
        const { local, central } = headers(buf);
        const at = buf.indexOf('zeros.bin');
        const l = local.filter((o) => o < at).pop()!;
        buf.writeUInt32LE(1000, l + 22);
        const c = central.find((o) => buf.toString('latin1', o + 46, o + 55) === 'zeros.bin')!;
        buf.writeUInt32LE(1000, c + 24);
        return buf;
      },
    );
    expect((await validatePackage(lying, { headersOnly: true })).files).toHaveLength(19);
    const out = join(dir, 'lying');
    let inflated = 0;
    await expect(extractPackage(lying, out, { onProgress: (n) => (inflated = n) })).rejects.toMatchObject({
      code: 'ZIP_BOMB',
    });
    expect(inflated).toBeLessThan(size / 4);
    const large = await write([
      { name: 'a.bin', data: Buffer.alloc(3000, 1), store: true },
      { name: 'b.bin', data: Buffer.alloc(3000, 2), store: true },
    ]);
    await expect(
      extractPackage(large, join(dir, 'large'), { limits: { maxInflatedBytes: 5000 } }),
    ).rejects.toMatchObject({
      code: 'ZIP_TOO_LARGE',
    });
  });

  it('refuses an entry whose bytes do not match its CRC-32, read whole (small) or streamed (large)', async () => {
    /** Flips one byte of the named stored entry's data. */
    const damage = (name: string) => (buf: Buffer) => {
      const at = buf.indexOf(name);
      const l = headers(buf)
        .local.filter((o) => o < at)
        .pop()!;
      const data = l + 30 + buf.readUInt16LE(l + 26) + buf.readUInt16LE(l + 28);
      buf[data + 100] ^= 0xff;
      return buf;
    };
    const entries = (big: Buffer): ZipEntrySpec[] => [
      { name: 'imsmanifest.xml', data: scorm12Manifest() },
      { name: 'index.html', data: page },
      { name: 'small.bin', data: Buffer.alloc(3000, 7), store: true },
      { name: 'large.bin', data: big, store: true },
    ];
    const big = randomBytes(1500 * 1024);
    const sound = await write(entries(big));
    expect(await extractPackage(sound, join(dir, 'crc-sound'))).toHaveLength(4);
    expect(readFileSync(join(dir, 'crc-sound', 'large.bin')).equals(big)).toBe(true);
    for (const name of ['small.bin', 'large.bin']) {
      const file = await write(entries(big), damage(name));
      // What the headers say is fine: the damage shows only in the bytes.
      expect((await validatePackage(file, { headersOnly: true })).files).toHaveLength(4);
      await expect(extractPackage(file, join(dir, `crc-${name}`))).rejects.toMatchObject({
        code: 'NOT_A_ZIP',
        message: expect.stringContaining(`bad CRC-32 in ${name}`),
      });
      expect((await failure(file)).code).toBe('NOT_A_ZIP');
    }
  });

  it('refuses a small entry that inflates short of its declared size, or has an unknown compression method', async () => {
    const entries: ZipEntrySpec[] = [
      { name: 'imsmanifest.xml', data: scorm12Manifest() },
      { name: 'index.html', data: page },
      { name: 'text.txt', data: 'lesson text '.repeat(250) },
    ];
    const patchEntry =
      (write32: [offsetLocal: number, offsetCentral: number, value: number, bits: 16 | 32]) => (buf: Buffer) => {
        const [local, central, value, bits] = write32;
        const at = buf.indexOf('text.txt');
        const l = headers(buf)
          .local.filter((o) => o < at)
          .pop()!;
        const c = headers(buf).central.find((o) => buf.toString('latin1', o + 46, o + 54) === 'text.txt')!;
        if (bits === 32) {
          buf.writeUInt32LE(value, l + local);
          buf.writeUInt32LE(value, c + central);
        } else {
          buf.writeUInt16LE(value, l + local);
          buf.writeUInt16LE(value, c + central);
        }
        return buf;
      };
    const short = await write(entries, patchEntry([22, 24, 4000, 32]));
    await expect(extractPackage(short, join(dir, 'short'))).rejects.toMatchObject({
      code: 'NOT_A_ZIP',
      message: expect.stringContaining('not enough bytes'),
    });
    const bzip2 = await write(entries, patchEntry([8, 10, 12, 16]));
    await expect(extractPackage(bzip2, join(dir, 'bzip2'))).rejects.toMatchObject({
      code: 'NOT_A_ZIP',
      message: expect.stringContaining('unsupported compression method: 12'),
    });
  });

  it('extractPackage writes many entries (several at once) with their exact bytes', async () => {
    const entries = Array.from({ length: 40 }, (_, i) => ({
      name: `d${i % 3}/f${i}.bin`,
      data: i % 2 ? randomBytes(1500 * 1024) : Buffer.alloc(10_000 + i, i),
    }));
    const file = await write([{ name: 'imsmanifest.xml', data: scorm12Manifest('d0/f0.bin') }, ...entries]);
    const out = join(dir, 'many');
    const files = await extractPackage(file, out);
    expect(files).toHaveLength(41);
    for (const e of entries) expect(readFileSync(join(out, e.name)).equals(e.data as Buffer)).toBe(true);
  });
});
