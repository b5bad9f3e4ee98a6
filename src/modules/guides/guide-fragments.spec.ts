import { hash } from 'node:crypto';
import type { GuideDocument } from './guide-document';
import { closeStep, cutDocument, layoutOf, sliceDocument, storedLayout } from './guide-fragments';

const doc = (extra: object = {}) =>
  ({
    guideid: 7,
    title: 'Door "seal" \u2028 😀 ,"prerequisiteids":',
    skipped: undefined,
    prerequisite_releases: [{ guideid: 3, releaseid: null }],
    prerequisiteids: [3],
    steps: [
      { stepid: 11, title: 'a}', lines: [] },
      { stepid: 12, title: '{b', lines: [{ text_raw: '<b>' }], media: { data: [{ id: 1 }] } },
    ],
    ...extra,
  }) as unknown as GuideDocument;

describe('guide fragments', () => {
  it('cuts a document into members and open steps that close into the steps with their comments', () => {
    const cut = cutDocument(5, doc(), undefined);
    expect(JSON.parse(`{${cut.fieldsJson}}`)).toEqual({
      guideid: 7,
      title: doc().title,
      prerequisite_releases: doc().prerequisite_releases,
    });
    expect(cut.stepids).toEqual([11, 12]);
    expect(cut.prerequisiteids).toEqual([3]);
    expect(cut.spliceable).toBe(true);
    const comments = [{ commentid: 1, text: 'x' }];
    expect(closeStep(cut.openSteps[1], JSON.stringify(comments), 1)).toBe(
      JSON.stringify({ ...doc().steps[1], comments, comment_count: 1 }),
    );
  });

  it('slices the stored text by its layout into the pieces a cut of the parsed document gives, digest included', () => {
    for (const document of [doc(), doc({ steps: [] }), doc({ prerequisiteids: [] })]) {
      const text = JSON.stringify(document);
      const layout = layoutOf(document, text);
      expect(layout).not.toBeNull();
      // Built from the pieces, the layout is that of JSON.stringify's text.
      expect(layoutOf(document)).toEqual(layout);
      const sliced = sliceDocument(5, text, storedLayout(text, JSON.stringify(layout))!);
      const cut = cutDocument(5, JSON.parse(text) as GuideDocument, text);
      for (const key of ['fieldsJson', 'openSteps', 'stepids', 'prerequisiteids', 'prerequisiteReleases'] as const)
        expect(sliced[key]).toEqual(cut[key]);
      expect(sliced.digest()).toBe(hash('sha1', text, 'base64url'));
      expect(sliced.digest()).toBe(cut.digest());
      expect(sliced.summary()).toEqual(cut.summary());
    }
  });

  it('has no layout for documents not laid out as written here, nor a stored layout for another text', () => {
    const { prerequisiteids, ...rest } = doc();
    const reordered = { prerequisiteids, ...rest } as GuideDocument;
    expect(layoutOf(reordered, JSON.stringify(reordered))).toBeNull();
    const commented = doc({ steps: [{ stepid: 1, comments: [] }] });
    expect(layoutOf(commented, JSON.stringify(commented))).toBeNull();
    const text = JSON.stringify(doc());
    const layout = JSON.stringify(layoutOf(doc(), text));
    // A database that rewrites JSON text (spaces after separators, as MySQL's JSON type does).
    expect(storedLayout(JSON.stringify(doc(), null, 1), layout)).toBeNull();
    expect(storedLayout(text, null)).toBeNull();
  });

  it('parses the stored text again for each caller of document()', () => {
    const text = JSON.stringify(doc());
    for (const cut of [
      cutDocument(5, JSON.parse(text) as GuideDocument, text),
      sliceDocument(5, text, layoutOf(doc(), text)!),
    ]) {
      const a = cut.document();
      a.steps.pop();
      expect(cut.document().steps).toHaveLength(2);
    }
  });
});
