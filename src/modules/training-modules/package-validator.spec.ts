import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractPackage, launchFile, PackageError, validatePackage } from './package-validator';
import { zipBuffer, type ZipEntrySpec } from './zip-writer';

const dir = mkdtempSync(join(tmpdir(), 'package-validator-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let sequence = 0;
async function write(entries: ZipEntrySpec[], patch?: (buf: Buffer) => Buffer): Promise<string> {
  sequence += 1;
  const file = join(dir, `p${sequence}.zip`);
  let buf = await zipBuffer(entries);
  if (patch) buf = patch(buf);
  writeFileSync(file, buf);
  return file;
}

/** Replaces every occurrence of an entry name (same length) in the local and central headers. */
const rename = (from: string, to: string) => (buf: Buffer) => {
  const a = Buffer.from(from, 'latin1');
  const b = Buffer.from(to, 'latin1');
  expect(a.length).toBe(b.length);
  let at = buf.indexOf(a);
  while (at >= 0) {
    b.copy(buf, at);
    at = buf.indexOf(a, at + 1);
  }
  return buf;
};

/** Offsets of every local (PK\3\4) and central (PK\1\2) header. */
function headers(buf: Buffer): { local: number[]; central: number[] } {
  const local: number[] = [];
  const central: number[] = [];
  for (let i = 0; i < buf.length - 4; i += 1) {
    const sig = buf.readUInt32LE(i);
    if (sig === 0x04034b50) local.push(i);
    if (sig === 0x02014b50) central.push(i);
  }
  return { local, central };
}

async function failure(file: string): Promise<PackageError> {
  try {
    await validatePackage(file);
  } catch (error) {
    if (error instanceof PackageError) return error;
    throw error;
  }
  throw new Error('the package was accepted');
}

const page = '<html><body>ok</body></html>';

const scorm12Manifest = (href = 'index.html', extra = '') => `<?xml version="1.0"?>
<manifest identifier="demo" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org1">
    <organization identifier="org0"><title>Other</title><item identifier="i0" identifierref="r2"><title>Not this</title></item></organization>
    <organization identifier="org1"><title>Course</title>
      <item identifier="i1"><title>Folder</title>
        <item identifier="i2" identifierref="r1" parameters="?lesson=1"><title>Lesson one</title></item>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="r1" type="webcontent" adlcp:scormtype="sco" href="${href}"><file href="${href}"/></resource>
    ${extra}
  </resources>
</manifest>`;

const scorm2004Manifest = (schemaversion: string | null, sequencing = '') => `<?xml version="1.0"?>
<manifest identifier="m2004" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
  <metadata>${schemaversion ? `<schemaversion>${schemaversion}</schemaversion>` : ''}</metadata>
  <organizations default="o"><organization identifier="o"><title>T2004</title>
    <item identifier="a" identifierref="ra"><title>A</title>${sequencing}</item>
    <item identifier="b" identifierref="rb"><title>B</title></item>
  </organization></organizations>
  <resources xml:base="content/">
    <resource identifier="ra" adlcp:scormType="sco" href="a.html"/>
    <resource identifier="rb" adlcp:scormType="sco" href="b.html"/>
  </resources>
</manifest>`;

describe('validatePackage: valid packages', () => {
  it('reads a SCORM 1.2 package: default organization, first item with a resource, parameters', async () => {
    const file = await write([
      { name: 'imsmanifest.xml', data: scorm12Manifest('lesson/index.html') },
      { name: 'lesson/index.html', data: page },
    ]);
    const report = await validatePackage(file);
    expect(report.manifest).toEqual({
      identifier: 'demo',
      title: 'Course',
      standard: 'scorm12',
      schemaversion: '1.2',
      scos: [{ identifier: 'r1', title: 'Lesson one', href: 'lesson/index.html' }],
      launch_path: 'lesson/index.html?lesson=1',
    });
    expect(report.warnings).toEqual([]);
    expect(report.files.map((f) => f.path).sort()).toEqual(['imsmanifest.xml', 'lesson/index.html']);
  });

  it('reads SCORM 2004 by schemaversion, with xml:base, MULTI_SCO and SEQUENCING_IGNORED warnings', async () => {
    const file = await write([
      { name: 'imsmanifest.xml', data: scorm2004Manifest('2004 4th Edition', '<imsss:sequencing/>') },
      { name: 'content/a.html', data: page },
      { name: 'content/b.html', data: page },
    ]);
    const report = await validatePackage(file);
    expect(report.manifest.standard).toBe('scorm2004');
    expect(report.manifest.launch_path).toBe('content/a.html');
    expect(report.manifest.scos).toHaveLength(2);
    expect(report.warnings.map((w) => w.code)).toEqual(['MULTI_SCO', 'SEQUENCING_IGNORED']);
  });

  it('tells SCORM 2004 from its namespace when schemaversion says nothing, and CAM 1.3', async () => {
    const files = [
      { name: 'content/a.html', data: page },
      { name: 'content/b.html', data: page },
    ];
    const bare = await validatePackage(
      await write([{ name: 'imsmanifest.xml', data: scorm2004Manifest(null) }, ...files]),
    );
    expect(bare.manifest.standard).toBe('scorm2004');
    const cam = await validatePackage(
      await write([{ name: 'imsmanifest.xml', data: scorm2004Manifest('CAM 1.3') }, ...files]),
    );
    expect(cam.manifest.standard).toBe('scorm2004');
  });

  it('reads cmi5: the first AU, masteryScore and moveOn; EXTERNAL_AU for an absolute URL', async () => {
    const xml = `<?xml version="1.0"?><courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
      <course id="https://example.test/course"><title><langstring lang="en">Cmi5 course</langstring></title></course>
      <block id="b1"><title><langstring>Block</langstring></title>
        <au id="au1" moveOn="CompletedAndPassed" masteryScore="0.8"><title><langstring>AU 1</langstring></title><url>au/index.html</url></au>
      </block>
      <au id="au2"><title><langstring>AU 2</langstring></title><url>https://elsewhere.example/au2</url></au>
    </courseStructure>`;
    const report = await validatePackage(
      await write([
        { name: 'cmi5.xml', data: xml },
        { name: 'au/index.html', data: page },
      ]),
    );
    expect(report.manifest).toMatchObject({ standard: 'cmi5', title: 'Cmi5 course', launch_path: 'au/index.html' });
    expect(report.masteryScore).toBe(80);
    expect(report.moveOn).toBe('CompletedAndPassed');
    expect(report.warnings.map((w) => w.code)).toEqual(['EXTERNAL_AU', 'MULTI_SCO']);
  });

  it('prefers cmi5.xml over imsmanifest.xml, and reads xAPI tincan.xml', async () => {
    const xapi = `<tincan xmlns="http://projecttincan.com/tincan.xsd"><activities>
      <activity id="http://example.test/act" type="http://adlnet.gov/expapi/activities/course"><name>Xapi course</name><launch lang="en-us">story.html</launch></activity>
    </activities></tincan>`;
    const report = await validatePackage(
      await write([
        { name: 'tincan.xml', data: xapi },
        { name: 'story.html', data: page },
      ]),
    );
    expect(report.manifest).toMatchObject({ standard: 'xapi', title: 'Xapi course', launch_path: 'story.html' });
    const both = await validatePackage(
      await write([
        { name: 'imsmanifest.xml', data: scorm12Manifest() },
        { name: 'index.html', data: page },
        {
          name: 'cmi5.xml',
          data: '<courseStructure><course id="c"/><au id="a"><url>index.html</url></au></courseStructure>',
        },
      ]),
    );
    expect(both.manifest.standard).toBe('cmi5');
  });
});

describe('validatePackage: failures', () => {
  it('NOT_A_ZIP', async () => {
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'this is not a zip at all, just some text');
    expect((await failure(file)).code).toBe('NOT_A_ZIP');
  });

  it.each([
    ['..', 'xx/evil.txt', '../evil.txt'],
    ['absolute', 'xevil.txt', '/evil.txt'],
    ['backslash ..', 'xx_evil.txt', '..\\evil.txt'],
    ['drive letter', 'xxevil.txt', 'C:evil.txt'],
  ])('ZIP_UNSAFE_PATH: %s', async (_what, placeholder, unsafe) => {
    const file = await write(
      [
        { name: 'imsmanifest.xml', data: scorm12Manifest() },
        { name: 'index.html', data: page },
        { name: placeholder, data: 'x' },
      ],
      rename(placeholder, unsafe),
    );
    expect((await failure(file)).code).toBe('ZIP_UNSAFE_PATH');
  });

  it('ZIP_UNSAFE_PATH: a duplicate name, a symlink, a name over 512 bytes', async () => {
    const dup = await write(
      [
        { name: 'index.html', data: page },
        { name: 'indey.html', data: page },
      ],
      rename('indey.html', 'index.html'),
    );
    expect((await failure(dup)).code).toBe('ZIP_UNSAFE_PATH');
    const link = await write([{ name: 'index.html', data: '/etc/passwd', mode: 0o120777 }]);
    expect((await failure(link)).message).toMatch(/Symbolic link/);
    const long = await write([{ name: `${'a'.repeat(600)}.html`, data: page }]);
    expect((await failure(long)).message).toMatch(/longer than 512/);
  });

  it('ZIP_ENCRYPTED: an entry with the encryption flag', async () => {
    const file = await write([{ name: 'index.html', data: page }], (buf) => {
      const { local, central } = headers(buf);
      local.forEach((at) => buf.writeUInt16LE(buf.readUInt16LE(at + 6) | 1, at + 6));
      central.forEach((at) => buf.writeUInt16LE(buf.readUInt16LE(at + 8) | 1, at + 8));
      return buf;
    });
    expect((await failure(file)).code).toBe('ZIP_ENCRYPTED');
  });

  it('ZIP_TOO_MANY_ENTRIES: 10,001 entries, refused before reading one', async () => {
    const entries = Array.from({ length: 10_001 }, (_, i) => ({ name: `f${i}.txt`, data: '', store: true }));
    const file = await write(entries);
    let inflated = 0;
    await expect(validatePackage(file, { onProgress: (n) => (inflated = n) })).rejects.toMatchObject({
      code: 'ZIP_TOO_MANY_ENTRIES',
    });
    expect(inflated).toBe(0);
  });

  it('ZIP_TOO_LARGE: counted as the bytes inflate', async () => {
    const file = await write([
      { name: 'a.bin', data: Buffer.alloc(3000, 1), store: true },
      { name: 'b.bin', data: Buffer.alloc(3000, 2), store: true },
    ]);
    await expect(validatePackage(file, { limits: { maxInflatedBytes: 5000 } })).rejects.toMatchObject({
      code: 'ZIP_TOO_LARGE',
    });
  });

  it('ZIP_BOMB: a high-ratio entry is refused from its header without inflating it', async () => {
    const file = await write([{ name: 'zeros.bin', data: Buffer.alloc(20 * 1024 * 1024) }]);
    let inflated = 0;
    await expect(validatePackage(file, { onProgress: (n) => (inflated = n) })).rejects.toMatchObject({
      code: 'ZIP_BOMB',
    });
    expect(inflated).toBe(0);
  });

  it('ZIP_BOMB: an entry whose header lies about its size stops while inflating, not at the end', async () => {
    const size = 20 * 1024 * 1024;
    const file = await write([{ name: 'zeros.bin', data: Buffer.alloc(size) }], (buf) => {
      const { local, central } = headers(buf);
      local.forEach((at) => buf.writeUInt32LE(1000, at + 22));
      central.forEach((at) => buf.writeUInt32LE(1000, at + 24));
      return buf;
    });
    let inflated = 0;
    await expect(validatePackage(file, { onProgress: (n) => (inflated = n) })).rejects.toMatchObject({
      code: 'ZIP_BOMB',
    });
    expect(inflated).toBeLessThan(size / 4);
  });

  it('MANIFEST_NOT_AT_ROOT, NO_MANIFEST, UNSUPPORTED_STANDARD', async () => {
    const nested = await write([
      { name: 'course/imsmanifest.xml', data: scorm12Manifest() },
      { name: 'course/index.html', data: page },
    ]);
    expect((await failure(nested)).code).toBe('MANIFEST_NOT_AT_ROOT');
    expect((await failure(await write([{ name: 'index.html', data: page }]))).code).toBe('NO_MANIFEST');
    expect((await failure(await write([{ name: 'course.cst', data: '[Course_Behavior]' }]))).code).toBe(
      'UNSUPPORTED_STANDARD',
    );
  });

  it('MANIFEST_INVALID: not XML, no manifest element, unknown SCORM version, over 5 MiB; entities are not expanded', async () => {
    expect(
      (await failure(await write([{ name: 'imsmanifest.xml', data: '<manifest><unclosed></manifest>' }]))).code,
    ).toBe('MANIFEST_INVALID');
    expect((await failure(await write([{ name: 'imsmanifest.xml', data: '<other/>' }]))).code).toBe('MANIFEST_INVALID');
    const unknown = scorm12Manifest()
      .replace('<schemaversion>1.2</schemaversion>', '<schemaversion>9</schemaversion>')
      .replace('adlcp_rootv1p2', 'other');
    expect(
      (
        await failure(
          await write([
            { name: 'imsmanifest.xml', data: unknown },
            { name: 'index.html', data: page },
          ]),
        )
      ).code,
    ).toBe('MANIFEST_INVALID');
    const huge = `<manifest>${' '.repeat(5 * 1024 * 1024)}</manifest>`;
    expect((await failure(await write([{ name: 'imsmanifest.xml', data: huge, store: true }]))).code).toBe(
      'MANIFEST_INVALID',
    );
    const entity = scorm12Manifest('&xxe;').replace(
      '<?xml version="1.0"?>',
      '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY xxe "index.html">]>',
    );
    const refused = await failure(
      await write([
        { name: 'imsmanifest.xml', data: entity },
        { name: 'index.html', data: page },
      ]),
    );
    expect(refused.code).toBe('LAUNCH_FILE_MISSING');
  });

  it('LAUNCH_FILE_MISSING: the resource href is not in the package', async () => {
    const file = await write([
      { name: 'imsmanifest.xml', data: scorm12Manifest('missing.html') },
      { name: 'index.html', data: page },
    ]);
    expect((await failure(file)).code).toBe('LAUNCH_FILE_MISSING');
  });
});

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
