import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validatePackage } from './package-validator';
import {
  dir,
  failure,
  headers,
  page,
  rename,
  scorm12Manifest,
  scorm2004Manifest,
  write,
} from '../../../test/fixtures/training-packages';

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
