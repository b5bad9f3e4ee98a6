import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractOffThread, validateOffThread } from './package-thread';
import { PackageError } from './package-types';
import { zipBuffer } from './zip-writer';

const dir = mkdtempSync(join(tmpdir(), 'package-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const manifest = `<manifest identifier="t" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schemaversion>1.2</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>T</title>
    <item identifier="i" identifierref="r"><title>L</title></item></organization></organizations>
  <resources><resource identifier="r" adlcp:scormtype="sco" href="index.html"/></resources></manifest>`;

describe('package checks in a worker thread', () => {
  it('validates and extracts off the event loop, with the same answers', async () => {
    const file = join(dir, 'ok.zip');
    writeFileSync(
      file,
      await zipBuffer([
        { name: 'imsmanifest.xml', data: manifest },
        { name: 'index.html', data: 'ok' },
      ]),
    );
    const report = await validateOffThread(file, { headersOnly: true });
    expect(report.manifest).toMatchObject({ standard: 'scorm12', launch_path: 'index.html' });
    const files = await extractOffThread(file, join(dir, 'out'));
    expect(files.map((f) => f.path).sort()).toEqual(['imsmanifest.xml', 'index.html']);
    expect(readFileSync(join(dir, 'out', 'index.html'), 'utf8')).toBe('ok');
  });

  it('answers a PackageError with its code; an abort rejects with the signal reason', async () => {
    const bad = join(dir, 'bad.zip');
    writeFileSync(bad, 'not a zip');
    const error = await validateOffThread(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PackageError);
    expect((error as PackageError).code).toBe('NOT_A_ZIP');
    const controller = new AbortController();
    const reason = new Error('cancelled');
    controller.abort(reason);
    await expect(validateOffThread(bad, { signal: controller.signal })).rejects.toBe(reason);
  });
});
