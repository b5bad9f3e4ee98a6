import { DataSource } from 'typeorm';
import { TrainingVersionEntity } from '../../src/modules/training-modules/entities/training-version.entity';
import { zipBuffer, type ZipEntrySpec } from '../../src/modules/training-modules/zip-writer';
import {
  BASE,
  cmi5Au,
  cmi5Course,
  importPackage,
  PAGE,
  publishedModule,
  scorm12Manifest,
  startTrainingApp,
  type TrainingTest,
} from './training-kit';

const scorm2004Manifest = (hrefs: string[]) => `<?xml version="1.0"?>
<manifest identifier="k4" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>2004</title>
    ${hrefs.map((_, i) => `<item identifier="i${i}" identifierref="r${i}"><title>L${i}</title></item>`).join('')}
  </organization></organizations>
  <resources>${hrefs.map((href, i) => `<resource identifier="r${i}" adlcp:scormType="sco" href="${href}"/>`).join('')}</resources>
</manifest>`;

const tincan = (launch: string) => `<?xml version="1.0"?>
<tincan xmlns="http://projecttincan.com/tincan.xsd"><activities>
  <activity id="https://example.test/activity" type="http://adlnet.gov/expapi/activities/course">
    <name>Kit xAPI</name><launch lang="und">${launch}</launch></activity>
</activities></tincan>`;

const withPage = (descriptor: string, body: string): ZipEntrySpec[] => [
  { name: descriptor, data: body },
  { name: 'index.html', data: PAGE },
];

const SCRIPT_DATA = 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==';

describe('Package rules through the import (T10, T12)', () => {
  let k: TrainingTest;
  beforeAll(async () => {
    k = await startTrainingApp();
  });
  afterAll(() => k.t.close());

  describe('launch targets that are not content are refused on every launch path', () => {
    it.each<[string, ZipEntrySpec[]]>([
      ['SCORM 1.2 javascript:', withPage('imsmanifest.xml', scorm12Manifest('javascript:alert(document.domain)'))],
      ['SCORM 1.2 JavaScript: in capitals', withPage('imsmanifest.xml', scorm12Manifest('JavaScript:alert(1)'))],
      ['SCORM 1.2 a tab inside the scheme', withPage('imsmanifest.xml', scorm12Manifest('java\tscript:alert(1)'))],
      ['SCORM 1.2 data:', withPage('imsmanifest.xml', scorm12Manifest(SCRIPT_DATA))],
      ['SCORM 1.2 an https URL', withPage('imsmanifest.xml', scorm12Manifest('https://evil.example/lesson.html'))],
      ['SCORM 1.2 a host-relative URL', withPage('imsmanifest.xml', scorm12Manifest('//evil.example/lesson.html'))],
      [
        'SCORM 1.2 an xml:base with a scheme',
        withPage(
          'imsmanifest.xml',
          scorm12Manifest('alert(1)').replace('<resource ', '<resource xml:base="javascript:" '),
        ),
      ],
      ['SCORM 2004 the launched resource', withPage('imsmanifest.xml', scorm2004Manifest(['javascript:alert(1)']))],
      ['SCORM 2004 a later SCO resource', withPage('imsmanifest.xml', scorm2004Manifest(['index.html', SCRIPT_DATA]))],
      ['cmi5 the first AU javascript:', withPage('cmi5.xml', cmi5Course(cmi5Au('a', 'javascript:alert(1)')))],
      [
        'cmi5 a later AU data:',
        withPage('cmi5.xml', cmi5Course(cmi5Au('a', 'index.html') + cmi5Au('b', 'data:text/html,hello'))),
      ],
      ['cmi5 an ftp: AU', withPage('cmi5.xml', cmi5Course(cmi5Au('a', 'ftp://files.example/au.html')))],
      ['xAPI javascript:', withPage('tincan.xml', tincan('javascript:alert(1)'))],
      ['xAPI an https URL', withPage('tincan.xml', tincan('https://lrs.example/launch.html'))],
    ])('%s: LAUNCH_FILE_MISSING, nothing to publish', async (what, entries) => {
      const { moduleid, result } = await importPackage(k, await zipBuffer(entries), `Launch ${what}`);
      expect(result).toMatchObject({ status: 'failed', error: { code: 'LAUNCH_FILE_MISSING' } });
      expect(result.error!.message).toMatch(/is not (in the package|a file of the package)/);
      const publish = await k.t.as(k.admin.token, { method: 'PUT', url: `${BASE}/${moduleid}/current`, payload: {} });
      expect(publish.statusCode).toBe(409);
      expect(publish.json()).toMatchObject({ moduleid, current: null, draft: { package_sha256: null } });
    });

    it('a cmi5 AU may be an http(s) URL: EXTERNAL_AU, and the player frames that URL', async () => {
      const data = await zipBuffer(withPage('cmi5.xml', cmi5Course(cmi5Au('a', 'https://lms.example/au/1?x=1'))));
      const { moduleid, importid, result } = await importPackage(k, data, 'External AU');
      expect(result).toMatchObject({ status: 'complete', warnings: [{ code: 'EXTERNAL_AU' }] });
      const preview = (
        await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/imports/${importid}/preview` })
      ).json();
      expect(preview.manifest.launch_path).toBe('https://lms.example/au/1?x=1');
      expect(
        (await k.t.as(k.admin.token, { method: 'PUT', url: `${BASE}/${moduleid}/current`, payload: {} })).statusCode,
      ).toBe(200);
      const launch = (await k.t.as(k.user.token, { method: 'GET', url: `${BASE}/${moduleid}/player` })).json();
      const page = await k.t.inject({ method: 'GET', url: launch.launch_url.replace('http://guides.test', '') });
      expect(page.statusCode).toBe(200);
      const config = JSON.parse(/id="player-config">(.*?)<\/script>/s.exec(page.body)![1]);
      expect(config.launchUrl).toBe('https://lms.example/au/1?x=1');
      expect(page.headers['content-security-policy']).toContain("frame-src 'self' https://lms.example;");
    });

    it('a launch path stored before these checks is never framed, launched or published', async () => {
      const { moduleid, versionid } = await publishedModule(k, undefined, 'Stored javascript launch');
      const launch = (await k.t.as(k.user.token, { method: 'GET', url: `${BASE}/${moduleid}/player` })).json();
      const versions = k.t.app.get(DataSource).getRepository(TrainingVersionEntity);
      await versions.update({ versionid }, { launchPath: 'javascript:alert(document.cookie)' });
      const page = await k.t.inject({ method: 'GET', url: launch.launch_url.replace('http://guides.test', '') });
      expect(page.statusCode).toBe(404);
      expect(page.body).not.toContain('javascript:');
      const again = await k.t.as(k.user.token, { method: 'GET', url: `${BASE}/${moduleid}/player` });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ moduleid, current: { versionid } });
      const rollback = await k.t.as(k.admin.token, {
        method: 'PUT',
        url: `${BASE}/${moduleid}/current`,
        payload: { versionid },
      });
      expect(rollback.statusCode).toBe(409);
    });
  });

  describe('two entries on one path on disk: ZIP_UNSAFE_PATH, not NOT_A_ZIP', () => {
    it.each<[string, ZipEntrySpec[]]>([
      ['./index.html beside index.html', [{ name: './index.html', data: 'other' }]],
      [
        'a file a beside a/b.txt',
        [
          { name: 'a', data: 'file' },
          { name: 'a/b.txt', data: 'x' },
        ],
      ],
      [
        'a/b.txt, then a file a',
        [
          { name: 'a/b.txt', data: 'x' },
          { name: 'a', data: 'file' },
        ],
      ],
      [
        'lessons//page.html beside lessons/page.html',
        [
          { name: 'lessons/page.html', data: 'x' },
          { name: 'lessons//page.html', data: 'y' },
        ],
      ],
    ])('%s', async (what, extra) => {
      const entries = [
        { name: 'imsmanifest.xml', data: scorm12Manifest() },
        { name: 'index.html', data: PAGE },
        ...extra,
      ];
      const { result } = await importPackage(k, await zipBuffer(entries), `Paths ${what}`);
      expect(result).toMatchObject({ status: 'failed', error: { code: 'ZIP_UNSAFE_PATH' } });
    });

    it('./index.html alone is index.html: the launch file is found and extracted there', async () => {
      const entries = [
        { name: 'imsmanifest.xml', data: scorm12Manifest() },
        { name: './index.html', data: PAGE },
      ];
      const { importid, result } = await importPackage(k, await zipBuffer(entries), 'Dot slash');
      expect(result.status).toBe('complete');
      const preview = (
        await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/imports/${importid}/preview` })
      ).json();
      expect(preview.files.map((f: { path: string }) => f.path).sort()).toEqual(['imsmanifest.xml', 'index.html']);
    });
  });

  describe('SCOs and AUs: at most 1,000, the first in the text launched', () => {
    const aus = (count: number) => Array.from({ length: count }, (_, i) => cmi5Au(`au${i}`, 'index.html')).join('');

    it('1,001 AUs fail with TOO_MANY_SCOS; 1,000 import with MULTI_SCO', async () => {
      const over = await importPackage(k, await zipBuffer(withPage('cmi5.xml', cmi5Course(aus(1001)))), 'AUs 1001');
      expect(over.result).toMatchObject({
        status: 'failed',
        error: { code: 'TOO_MANY_SCOS', message: 'The package has 1001 AUs (at most 1000)' },
      });
      const at = await importPackage(k, await zipBuffer(withPage('cmi5.xml', cmi5Course(aus(1000)))), 'AUs 1000');
      expect(at.result).toMatchObject({ status: 'complete', warnings: [{ code: 'MULTI_SCO' }] });
    });

    it('1,001 SCORM SCOs fail with TOO_MANY_SCOS', async () => {
      const hrefs = Array.from({ length: 1001 }, () => 'index.html');
      const { result } = await importPackage(k, await zipBuffer(withPage('imsmanifest.xml', scorm2004Manifest(hrefs))));
      expect(result).toMatchObject({ status: 'failed', error: { code: 'TOO_MANY_SCOS' } });
    });

    it.each([
      ['with ids', 'first', 'second'],
      ['without ids', null, null],
    ])('the first AU in the text is launched, in a block or not (%s)', async (_what, first, second) => {
      const course =
        cmi5Course(`<block id="b"><title><langstring>B</langstring></title>${cmi5Au(first, 'first.html')}</block>
        ${cmi5Au(second, 'second.html')}`);
      const data = await zipBuffer([
        { name: 'cmi5.xml', data: course },
        { name: 'first.html', data: PAGE },
        { name: 'second.html', data: PAGE },
      ]);
      const { importid, result } = await importPackage(k, data, `AU order ${_what}`);
      expect(result.status).toBe('complete');
      const preview = (
        await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/imports/${importid}/preview` })
      ).json();
      expect(preview.manifest.launch_path).toBe('first.html');
      expect(preview.manifest.scos.map((s: { href: string }) => s.href)).toEqual(['first.html', 'second.html']);
    });
  });
});
