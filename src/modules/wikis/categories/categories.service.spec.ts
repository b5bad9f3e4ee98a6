import { parseWikiText } from '../../../wikitext';
import { wikiTextFromDoc } from '../../../wikitext';
import { titleHash } from '../wiki-namespaces';
import type { TreeRow } from './categories.repository';
import { buildTree, identificationSection } from './categories.service';

const row = (wikiid: number, title: string, parentWikiid: number | null, flags = ''): TreeRow => ({
  wikiid,
  title,
  titleHash: titleHash(title),
  parentWikiid,
  langid: 'en',
  displayTitle: title,
  flags,
  treeToken: 'token',
});

describe('buildTree', () => {
  const rows = [
    row(1, 'Phone', null),
    row(2, 'iPhone', 1),
    row(3, 'Android', 1),
    row(4, 'Stub', 3, 'WIKI_STUB'),
    row(5, 'Lamp', null),
  ];

  it('nests children by title; leaves are null; stubs and their subtrees are left out unless asked', () => {
    expect(buildTree(rows, { includeStubs: false }).tree).toEqual({
      Lamp: null,
      Phone: { Android: null, iPhone: null },
    });
    expect(buildTree(rows, { includeStubs: true }).tree).toEqual({
      Lamp: null,
      Phone: { Android: { Stub: null }, iPhone: null },
    });
  });

  it('requireGuides keeps a node with guides or with a kept descendant', () => {
    const counts = new Map([[titleHash('Stub'), 2]]);
    expect(buildTree(rows, { includeStubs: true, guideCounts: counts }).tree).toEqual({
      Phone: { Android: { Stub: null } },
    });
    expect(buildTree(rows, { includeStubs: false, guideCounts: counts }).tree).toEqual({});
  });

  it('puts categories whose parent is not live at the top level, and leaves out cycles', () => {
    expect(buildTree([row(1, 'A', 99), row(2, 'B', 3), row(3, 'C', 2)], { includeStubs: false }).tree).toEqual({
      A: null,
    });
  });
});

describe('identificationSection', () => {
  it('takes the nodes under the Identification heading up to the next heading of the same or a higher level', () => {
    const doc = parseWikiText('Intro\n\n== Identification ==\n\nA\n\n=== Detail ===\n\nB\n\n== Other ==\n\nC');
    expect(wikiTextFromDoc(identificationSection(doc))).toBe('A\n\n=== Detail ===\n\nB');
    expect(identificationSection(parseWikiText('No section'))).toEqual({ type: 'doc', content: [] });
  });
});
