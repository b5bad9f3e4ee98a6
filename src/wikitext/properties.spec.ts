import fc from 'fast-check';
import { renderWikiText, wikiTextFromDoc } from './index';
import { htmlViolations } from './test-support/html-check';

const TOKENS = [
  "''",
  "'''",
  "'''''",
  "'",
  '++',
  ',,',
  '^^',
  '``',
  '~~',
  '[',
  ']',
  '|',
  '[br]',
  '[code]',
  '[/code]',
  '[quote]',
  '[quote|A|format=featured]',
  '[/quote]',
  '\n',
  '\n\n',
  '* ',
  '** ',
  '# ',
  '## ',
  '== ',
  ' ==',
  '=== ',
  ' ===',
  '[https://ifixit.com|',
  '[link|javascript:alert(1)|',
  '[guide|1|',
  '[image|2|size=large]',
  '[wiki|Device|X|',
  '[product|IF1|',
  '[video|https://v.example/x]',
  'new_window=true',
  '<script>',
  '"',
  '&',
  '&#x09;',
  'javascript:',
  ' ',
  'text',
  'x',
];

const markupString = fc
  .array(fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 6 })), { maxLength: 200 })
  .map((parts) => parts.join(''));

const resolver = {
  guide: (id: number) => ({ title: `Guide ${id}`, url: `/Guide/${id}` }),
  image: (id: number) => ({ id, urls: { standard: `https://img.example/${id}.standard` } }),
};

describe('property tests', () => {
  it('never throws and renders only allowed HTML for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: 'binary' }), (raw) => {
        const { rendered } = renderWikiText(raw, resolver);
        expect(htmlViolations(rendered)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws and renders only allowed HTML for strings built from markup tokens', () => {
    fc.assert(
      fc.property(markupString, (raw) => {
        const { rendered, json } = renderWikiText(raw, resolver);
        expect(htmlViolations(rendered)).toEqual([]);
        expect(typeof wikiTextFromDoc(json)).toBe('string');
      }),
      { numRuns: 500 },
    );
  });

  // No wall-clock bound (flaky on a loaded machine): a super-linear blow-up shows as the test's time-out.
  it('renders a 20 KB token soup', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { minLength: 4000, maxLength: 4000 }), (parts) => {
        const raw = parts.join('').slice(0, 20_000);
        const result = renderWikiText(raw, resolver);
        expect(htmlViolations(result.rendered)).toEqual([]);
      }),
      { numRuns: 30 },
    );
  });

  it('serializing a parsed tree gives text whose tree serializes the same way (token soup)', () => {
    // Not a guarantee for arbitrary garbage, so this only measures: at least 90% must be stable.
    let stable = 0;
    const samples = fc.sample(markupString, { numRuns: 300, seed: 42 });
    for (const raw of samples) {
      const once = wikiTextFromDoc(renderWikiText(raw).json);
      if (wikiTextFromDoc(renderWikiText(once).json) === once) stable++;
    }
    expect(stable / samples.length).toBeGreaterThan(0.9);
  });
});
