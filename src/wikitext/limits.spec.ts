import { renderWikiText } from './index';
import { MAX_INPUT_LENGTH, MAX_NESTING_DEPTH } from './limits';
import { buildBenchPage } from './bench/render-bench';
import { htmlViolations } from './test-support/html-check';
import type { WikiNode } from './types';

function treeDepth(root: WikiNode): number {
  let max = 0;
  const stack: [WikiNode, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [WikiNode, number];
    max = Math.max(max, depth);
    for (const child of node.content ?? []) stack.push([child, depth + 1]);
  }
  return max;
}

// No wall-clock bounds here (a loaded machine makes them flaky): these tests check that hostile input is
// cut, clamped and rendered safely. A super-linear blow-up on such input shows as the test's own time-out;
// speed and scaling (1 MB vs 4 MB) are measured by `npm run bench:wikitext`.
const HOSTILE_INPUT_TIMEOUT_MS = 60_000;

describe('limits', () => {
  it(
    'cuts 10,000 nested quotes at the maximum depth and keeps the rest as text',
    () => {
      const raw = '[quote]\n'.repeat(10_000) + 'deep\n' + '[/quote]\n'.repeat(10_000);
      const result = renderWikiText(raw);
      expect(treeDepth(result.json)).toBeLessThanOrEqual(MAX_NESTING_DEPTH + 4);
      expect(result.rendered.includes('deep')).toBe(true);
      expect(result.rendered.includes('[quote]')).toBe(true);
      expect(htmlViolations(result.rendered)).toEqual([]);
    },
    HOSTILE_INPUT_TIMEOUT_MS,
  );

  it(
    'clamps 10,000 list levels to the maximum depth',
    () => {
      // ~50 MB of markers: also exercises the input cut-off at MAX_INPUT_LENGTH.
      const raw = Array.from({ length: 10_000 }, (_, i) => `${'*'.repeat(i + 1)} level ${i + 1}`).join('\n');
      const result = renderWikiText(raw);
      expect(treeDepth(result.json)).toBeLessThanOrEqual(2 * MAX_NESTING_DEPTH + 4);
      expect(result.rendered.includes('<li>level 2000</li>')).toBe(true);
      expect(result.rendered.includes('level 10000')).toBe(false);
      expect(htmlViolations(result.rendered)).toEqual([]);
    },
    HOSTILE_INPUT_TIMEOUT_MS,
  );

  it(
    'handles 100,000 unmatched bold markers and brackets',
    () => {
      for (const raw of [
        "'''".repeat(100_000) + "'",
        "a''' ".repeat(100_000),
        '['.repeat(100_000),
        '[https://x|'.repeat(50_000),
      ]) {
        const result = renderWikiText(raw);
        expect(result.rendered.length).toBeGreaterThan(0);
      }
    },
    HOSTILE_INPUT_TIMEOUT_MS,
  );

  it(
    'renders a 5 MB page',
    () => {
      const raw = buildBenchPage(5 * 1024 * 1024);
      const result = renderWikiText(raw);
      expect(result.rendered.length).toBeGreaterThan(raw.length / 2);
      expect(htmlViolations(result.rendered)).toEqual([]);
    },
    HOSTILE_INPUT_TIMEOUT_MS,
  );

  it('truncates input beyond MAX_INPUT_LENGTH instead of failing', () => {
    const raw = 'x'.repeat(MAX_INPUT_LENGTH) + 'TAIL';
    const result = renderWikiText(raw);
    expect(result.rendered.includes('TAIL')).toBe(false);
    expect(result.raw).toBe(raw);
  });
});
