import type { GuideDetailDto, StepDto } from '../../src/modules/guides/dto/guide-response.dto';
import { MachineTranslation } from '../../src/modules/wikis/machine-translation';
import { createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;

describe('Guide translations (step text, fallback, machine translation)', () => {
  let t: TestApp;
  let author: CreatedUser;
  let translator: CreatedUser;
  let stranger: CreatedUser;
  let guideid: number;
  let first: StepDto;
  let second: StepDto;

  const read = async (query = '', token?: string) =>
    (await t.as(token, { method: 'GET', url: api(`/guides/${guideid}${query}`) })).json<GuideDetailDto>();
  const patchStep = (token: string, stepid: number, revisionid: number, payload: object) =>
    t.as(token, { method: 'PATCH', url: api(`/guides/${guideid}/steps/${stepid}?revisionid=${revisionid}`), payload });
  const sourceLines = (step: StepDto, texts: string[]) =>
    step.lines.map((line, i) => ({ text: texts[i] ?? line.text_raw, bullet: line.bullet, level: line.level }));

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    translator = await createUser(t);
    stranger = await createUser(t, { privilege: 'Author' });
    await createCategory(t, admin.user, 'Kettle');
    guideid = (await createGuide(t, author.user, { category: 'Kettle', title: 'Kettle Lid Replacement' })).guideid;
    const steps = api(`/guides/${guideid}/steps`);
    await t.as(author.token, {
      method: 'POST',
      url: steps,
      payload: {
        title: 'Open the lid',
        lines: [
          { text: 'Lift the lid.', bullet: 'black', level: 0 },
          { text: "Mind the '''hinge'''.", bullet: 'icon_caution', level: 1 },
        ],
      },
    });
    await t.as(author.token, {
      method: 'POST',
      url: steps,
      payload: { title: 'Remove the lid', lines: [{ text: 'Pull it off.', bullet: 'black', level: 0 }] },
    });
    const head = await read('?unpatrolled', author.token);
    await t.as(author.token, { method: 'PUT', url: api(`/guides/${guideid}/public?revisionid=${head.revisionid}`) });
    [first, second] = (await read()).steps;
  });
  afterAll(() => t.close());

  it('rejects step translations that change structure, media, or come from someone who may not edit', async () => {
    const media = await patchStep(author.token, first.stepid, first.revisionid, {
      langid: 'de',
      media: { type: 'image', data: [] },
    });
    expect(media.statusCode).toBe(422);
    expect(media.json().errors).toEqual([expect.objectContaining({ field: 'media' })]);
    const count = await patchStep(author.token, first.stepid, first.revisionid, {
      langid: 'de',
      lines: [{ text: 'Nur eine', bullet: 'black', level: 0 }],
    });
    expect(count.statusCode).toBe(422);
    expect(count.json().errors).toEqual([expect.objectContaining({ field: 'lines' })]);
    const bullet = await patchStep(author.token, first.stepid, first.revisionid, {
      langid: 'de',
      lines: [
        { text: 'Deckel anheben.', bullet: 'black', level: 0 },
        { text: 'Scharnier!', bullet: 'red', level: 1 },
      ],
    });
    expect(bullet.statusCode).toBe(422);
    expect(bullet.json().errors).toEqual([expect.objectContaining({ field: 'lines', index: 1 })]);
    expect(
      (await patchStep(stranger.token, first.stepid, first.revisionid, { langid: 'de', title: 'X' })).statusCode,
    ).toBe(403);
    const other = await createGuide(t, author.user, { category: 'Kettle' });
    const foreign = await t.as(author.token, {
      method: 'PATCH',
      url: api(`/guides/${other.guideid}/steps/${first.stepid}?revisionid=${first.revisionid}`),
      payload: { langid: 'de', title: 'X' },
    });
    expect(foreign.statusCode).toBe(404);
    const stale = await patchStep(author.token, first.stepid, first.revisionid + 1000, { langid: 'de', title: 'X' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ stepid: first.stepid, title: 'Open the lid', revisionid: first.revisionid });
    expect((await read('?langid=de')).available_langids).toEqual(['en']);
  });

  let translated: StepDto;

  it('translates a step’s title and line text; reads in that language fall back step by step', async () => {
    const res = await patchStep(author.token, first.stepid, first.revisionid, {
      langid: 'de',
      title: 'Deckel öffnen',
      lines: sourceLines(first, ['Deckel anheben.', "Auf das '''Scharnier''' achten."]),
    });
    expect(res.statusCode).toBe(200);
    translated = res.json<StepDto>();
    expect(translated).toMatchObject({
      stepid: first.stepid,
      guideid,
      orderby: 1,
      title: 'Deckel öffnen',
      lines: [
        { text_raw: 'Deckel anheben.', text_rendered: '<p>Deckel anheben.</p>', bullet: 'black', level: 0 },
        {
          text_raw: "Auf das '''Scharnier''' achten.",
          text_rendered: '<p>Auf das <strong>Scharnier</strong> achten.</p>',
          bullet: 'icon_caution',
          level: 1,
        },
      ],
      media: first.media,
    });
    expect(translated.revisionid).toBeGreaterThan(first.revisionid);

    const de = await read('?langid=de');
    expect(de).toMatchObject({ locale: 'de', title: 'Kettle Lid Replacement', available_langids: ['en', 'de'] });
    expect(de.steps.map((s) => [s.title, s.revisionid, s.lines.map((l) => l.text_raw)])).toEqual([
      ['Deckel öffnen', translated.revisionid, ['Deckel anheben.', "Auf das '''Scharnier''' achten."]],
      ['Remove the lid', second.revisionid, ['Pull it off.']],
    ]);
    const en = await read();
    expect(en.locale).toBe('en');
    expect(en.steps.map((s) => [s.title, s.revisionid])).toEqual([
      ['Open the lid', first.revisionid],
      ['Remove the lid', second.revisionid],
    ]);
    expect((await read('?langid=fr')).steps[0].title).toBe('Open the lid');
  });

  it('guards each translated step with its revisionid in that language; equal values save nothing', async () => {
    const stale = await patchStep(author.token, first.stepid, first.revisionid, { langid: 'de', title: 'Alt' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual(translated);
    const headBefore = (await read('?langid=de&unpatrolled', author.token)).revisionid;
    const same = await patchStep(author.token, first.stepid, translated.revisionid, {
      langid: 'de',
      title: 'Deckel öffnen',
    });
    expect(same.statusCode).toBe(200);
    expect(same.json().revisionid).toBe(translated.revisionid);
    expect((await read('?langid=de&unpatrolled', author.token)).revisionid).toBe(headBefore);
  });

  it('keeps guide-level and step translations together in one language version', async () => {
    const de = await read('?langid=de&unpatrolled', author.token);
    const res = await t.as(author.token, {
      method: 'PATCH',
      url: api(`/guides/${guideid}?revisionid=${de.head_revisionid}`),
      payload: { langid: 'de', title: 'Wasserkocher Deckel Austausch' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ locale: 'de', title: 'Wasserkocher Deckel Austausch' });
    expect(res.json().steps[0].title).toBe('Deckel öffnen');
    const stale = await t.as(author.token, {
      method: 'PATCH',
      url: api(`/guides/${guideid}?revisionid=${de.head_revisionid}`),
      payload: { langid: 'de', title: 'Zu spät' },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ locale: 'de', title: 'Wasserkocher Deckel Austausch' });
  });

  it('a change of the source step changes its translated revisionid; added source lines show untranslated', async () => {
    const en = await read('?unpatrolled', author.token);
    const source = en.steps[0];
    const edited = await patchStep(author.token, source.stepid, source.revisionid, {
      lines: [...sourceLines(source, []), { text: 'Wipe the seal.', bullet: 'black', level: 0 }],
    });
    expect(edited.statusCode).toBe(200);
    const de = (await read('?langid=de')).steps[0];
    expect(de.revisionid).toBe(edited.json().revisionid);
    expect(de.revisionid).toBeGreaterThan(translated.revisionid);
    expect(de.lines.map((l) => l.text_raw)).toEqual([
      'Deckel anheben.',
      "Auf das '''Scharnier''' achten.",
      'Wipe the seal.',
    ]);
    expect(
      (await patchStep(author.token, source.stepid, translated.revisionid, { langid: 'de', title: 'X' })).statusCode,
    ).toBe(409);
    const short = await patchStep(author.token, source.stepid, de.revisionid, {
      langid: 'de',
      lines: sourceLines(edited.json<StepDto>(), ['Deckel anheben.', 'Scharnier.']).slice(0, 2),
    });
    expect(short.statusCode).toBe(422);
    const full = await patchStep(author.token, source.stepid, de.revisionid, {
      langid: 'de',
      lines: sourceLines(edited.json<StepDto>(), ['Deckel anheben.', 'Scharnier.', 'Dichtung abwischen.']),
    });
    expect(full.statusCode).toBe(200);
    expect(full.json().lines.map((l: { text_raw: string }) => l.text_raw)).toEqual([
      'Deckel anheben.',
      'Scharnier.',
      'Dichtung abwischen.',
    ]);
  });

  it('a translation by an editor who does not patrol waits for patrol', async () => {
    await t.as(author.token, { method: 'PUT', url: api(`/guides/${guideid}/users/${translator.user.userid}`) });
    const step = (await read('?langid=de&unpatrolled', translator.token)).steps[1];
    const res = await patchStep(translator.token, step.stepid, step.revisionid, {
      langid: 'de',
      title: 'Deckel abnehmen',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toBe('Deckel abnehmen');
    expect((await read('?langid=de')).steps[1].title).toBe('Remove the lid');
    expect((await read('?langid=de&unpatrolled', translator.token)).steps[1].title).toBe('Deckel abnehmen');
  });

  it('reads a translated guide in a bounded number of statements', async () => {
    const res = await t.inject({ method: 'GET', url: api(`/guides/${guideid}?langid=de`) });
    expect(res.statusCode).toBe(200);
    expect(sqlCount(res)).toBeLessThanOrEqual(6);
  });

  describe('machineTranslateLangid', () => {
    const provider = {
      calls: 0,
      translate(texts: string[], from: string, to: string) {
        this.calls += 1;
        return Promise.resolve(texts.map((text) => (text ? `[${from}>${to}] ${text}` : '')));
      },
    };
    afterEach(() => t.app.get(MachineTranslation).use(undefined));

    it('answers the guide as stored when no provider is configured', async () => {
      const res = await read('?machineTranslateLangid=fr');
      expect(res).toMatchObject({ locale: 'en', title: 'Kettle Lid Replacement' });
    });

    it('machine-translates the shown text, renders it, and names the language', async () => {
      t.app.get(MachineTranslation).use(provider);
      const res = await read('?machineTranslateLangid=fr');
      expect(res).toMatchObject({
        locale: 'fr',
        title: '[en>fr] Kettle Lid Replacement',
        available_langids: ['en', 'de'],
      });
      expect(res.steps[0].title).toBe('[en>fr] Open the lid');
      expect(res.steps[0].lines[1]).toMatchObject({
        text_raw: "[en>fr] Mind the '''hinge'''.",
        text_rendered: '<p>[en&gt;fr] Mind the <strong>hinge</strong>.</p>',
        bullet: 'icon_caution',
      });
      const fromGerman = await read('?langid=de&machineTranslateLangid=fr');
      expect(fromGerman.title).toBe('[de>fr] Wasserkocher Deckel Austausch');
    });

    it('prefers a human translation into that language', async () => {
      t.app.get(MachineTranslation).use(provider);
      const before = provider.calls;
      const res = await read('?machineTranslateLangid=de');
      expect(res).toMatchObject({ locale: 'de', title: 'Wasserkocher Deckel Austausch' });
      expect(provider.calls).toBe(before);
    });
  });
});
