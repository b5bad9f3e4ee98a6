import { escapeHtml, mentions, plainText, snippet } from './snippet';
import { spreadSuggestions } from './search.mapper';

describe('snippet', () => {
  it('marks matching words by prefix, case- and accent-insensitively, escaping the rest', () => {
    expect(snippet('Résumé & <battery> "cells"', ['resume', 'batt'])).toBe(
      '<mark>Résumé</mark> &amp; &lt;<mark>battery</mark>&gt; &quot;cells&quot;',
    );
  });

  it('cuts around the first match at word boundaries', () => {
    const text = `${'lorem '.repeat(30)}battery ${'ipsum '.repeat(60)}`.trim();
    const html = snippet(text, ['battery'], 100);
    expect(html.startsWith('…lorem')).toBe(true);
    expect(html.endsWith('…')).toBe(true);
    expect(html).toContain('<mark>battery</mark>');
    expect(html.replace(/<\/?mark>|…/g, '').length).toBeLessThanOrEqual(100);
    expect(
      html
        .replace(/<\/?mark>|…/g, '')
        .split(' ')
        .every((w) => w === 'lorem' || w === 'ipsum' || w === 'battery'),
    ).toBe(true);
  });

  it('shows the start of the text without a match', () => {
    expect(snippet('Short text.', ['zebra'])).toBe('Short text.');
    expect(snippet('x'.repeat(300), ['zebra'], 10)).toBe(`${'x'.repeat(10)}…`);
  });

  it('knows whether a text mentions a word', () => {
    expect(mentions('The Battery', ['batt'])).toBe(true);
    expect(mentions('The Battery', ['cell'])).toBe(false);
  });

  it('turns wiki text and HTML into plain text', () => {
    expect(plainText("== Tools ==\n'''Bold''' [link|Pentalobe|screwdriver] <b>x</b> 5 < 6\n* item")).toBe(
      'Tools Bold link Pentalobe screwdriver x 5 < 6 item',
    );
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('spreadSuggestions', () => {
  it('takes one of each kind in turn, then groups them by kind', () => {
    expect(spreadSuggestions([['t1', 't2', 't3', 't4'], ['g1']], 3)).toEqual(['t1', 't2', 'g1']);
    expect(spreadSuggestions([Array.from({ length: 10 }, (_, i) => `t${i}`), ['g1', 'g2', 'g3']], 10)).toEqual([
      ...Array.from({ length: 7 }, (_, i) => `t${i}`),
      'g1',
      'g2',
      'g3',
    ]);
    expect(spreadSuggestions([[], ['g1']], 10)).toEqual(['g1']);
  });
});
