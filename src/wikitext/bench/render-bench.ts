import { renderWikiText } from '../index';
import type { WikiTextResolver } from '../types';

const SECTION = [
  '== Step {n}: Remove the battery ==',
  '',
  "Heat the lower edge with an ''iOpener'' for '''90 seconds''', then insert an opening pick. See [guide|{n}|the opening procedure] and [https://www.ifixit.com/Answers/View/{n}|this answer].",
  '',
  '[image|{n}|align=left|size=large]',
  '',
  '* Slide the pick along the ++left edge++ to cut the adhesive.',
  '** Do not insert it deeper than 3 mm,,max,, or you may damage the ~~display~~ cables.',
  '# Disconnect the battery with a ``spudger``.[br]',
  '# Remove the four 1.2 mm [product|IF145-{n}|Phillips #000] screws.',
  '',
  '[quote|A technician|format=featured]',
  'Always disconnect the battery before <b>working</b> on the logic board.',
  '[/quote]',
  '',
  '[code]',
  'adb shell dumpsys battery',
  '[/code]',
  '',
].join('\n');

/** A realistic repair page of roughly `bytes` characters. */
export function buildBenchPage(bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let n = 1; length < bytes; n++) {
    const section = SECTION.replace(/\{n\}/g, String(n));
    parts.push(section);
    length += section.length + 1;
  }
  return parts.join('\n').slice(0, bytes);
}

const benchResolver: WikiTextResolver = {
  guide: (id) => ({ title: `Guide ${id}`, url: `/Guide/${id}` }),
  image: (id) => ({
    id,
    urls: { standard: `https://img.example/${id}.standard`, large: `https://img.example/${id}.large` },
  }),
  product: (code) => ({ title: code, url: `/Products/${code}` }),
};

/** Renders a ~1 MB realistic page (or `bytes`) and reports throughput. */
export async function runRenderBench(bytes = 1024 * 1024): Promise<{ mbPerSecond: number; bytes: number; ms: number }> {
  const page = buildBenchPage(bytes);
  renderWikiText(page.slice(0, 20_000), benchResolver); // warm up
  const started = performance.now();
  renderWikiText(page, benchResolver);
  const ms = performance.now() - started;
  await Promise.resolve();
  return { mbPerSecond: page.length / (1024 * 1024) / (ms / 1000), bytes: page.length, ms };
}
