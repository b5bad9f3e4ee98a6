import type { GuideDocument, GuideSummaryDocument } from './guide-documents.service';
import { closeStep, cutDocument, joinMembers } from './guide-fragments';

const summary = {} as GuideSummaryDocument;
const doc = (extra: object = {}) =>
  ({
    guideid: 7,
    title: 'Door "seal" \u2028 😀',
    prerequisite_releases: [],
    prerequisiteids: [3],
    steps: [
      { stepid: 11, title: 'a', lines: [] },
      { stepid: 12, title: 'b', lines: [{ text_raw: '<b>' }] },
    ],
    ...extra,
  }) as unknown as GuideDocument;

describe('guide fragments', () => {
  it('joins members as JSON.stringify writes an object spreading them (later keys replace in place)', () => {
    const cases: [string, unknown][][] = [
      [],
      [['a', 1]],
      [
        ['a', 1],
        ['b', 'x'],
        ['a', 2],
      ],
      [
        ['a', undefined],
        ['b', null],
      ],
      [
        ['__proto__', { x: 1 }],
        ['c', [1, { d: '\u2028' }]],
      ],
    ];
    for (const members of cases) {
      const object: Record<string, unknown> = {};
      for (const [key, value] of members)
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      const text = joinMembers(members.map(([key, value]) => [key, JSON.stringify(value) as string | undefined]));
      expect(text).toBe(JSON.stringify(object));
    }
  });

  it('cuts a document into members and open steps that close into the steps with their comments', () => {
    const cut = cutDocument(5, doc(), summary, undefined);
    expect(cut.fields.map(([key]) => key)).toEqual(['guideid', 'title', 'prerequisite_releases']);
    expect(cut.stepids).toEqual([11, 12]);
    expect(cut.prerequisiteids).toEqual([3]);
    expect(cut.spliceable).toBe(true);
    const comments = [{ commentid: 1, text: 'x' }];
    expect(closeStep(cut.openSteps[1], JSON.stringify(comments), 1)).toBe(
      JSON.stringify({ ...doc().steps[1], comments, comment_count: 1 }),
    );
  });

  it('leaves documents whose steps already hold a member the detail adds to the object path', () => {
    const steps = [{ stepid: 1, comments: [] }];
    expect(cutDocument(5, doc({ steps }), summary, undefined).spliceable).toBe(false);
    expect(cutDocument(5, doc({ steps: [{}] }), summary, undefined).spliceable).toBe(false);
  });

  it('parses the stored text again for each caller of document()', () => {
    const text = JSON.stringify(doc());
    const cut = cutDocument(5, JSON.parse(text) as GuideDocument, summary, text);
    const a = cut.document();
    a.steps.pop();
    expect(cut.document().steps).toHaveLength(2);
  });
});
