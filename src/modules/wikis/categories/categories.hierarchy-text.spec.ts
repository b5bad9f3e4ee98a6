import type { ContentVersions } from '../../../platform/versions/content-versions';
import type { CategoriesRepository, TreeRow } from './categories.repository';
import { CategoriesService } from './categories.service';

/**
 * Which token a kept hierarchy is kept under, with the reads of the check and of the tree coming from
 * replicas at different points (the e2e specs cover one database): always the token the tree's own rows were
 * read with, never the one the check read.
 */
describe('CategoriesService.hierarchyText: the token an answer is kept under', () => {
  let checkToken: string | null;
  let treeToken: string | null;
  let translationToken: string | null;
  let treeReads: number;

  const rowsAt = (token: string | null, title: string): TreeRow[] => [
    { wikiid: 1, title, parentWikiid: null, displayTitle: title, flags: '', treeToken: token },
  ];
  const categories = {
    treeRows: () => {
      treeReads += 1;
      return Promise.resolve(rowsAt(treeToken, `State ${treeToken}`));
    },
    translatedTitles: () =>
      Promise.resolve({ titles: new Map([[1, `Übersetzt ${translationToken}`]]), treeToken: translationToken }),
  } as unknown as CategoriesRepository;
  const versions = { read: () => Promise.resolve(checkToken) } as unknown as ContentVersions;
  const service = () => {
    const deps: unknown[] = [categories, ...Array.from({ length: 8 }, () => undefined), versions];
    return new (CategoriesService as unknown as new (...args: unknown[]) => CategoriesService)(...deps);
  };

  beforeEach(() => {
    [checkToken, treeToken, translationToken, treeReads] = ['a', 'a', 'a', 0];
  });

  it('kept under the rows’ token: a check that lags behind them builds again, one that reaches them is served', async () => {
    const categoriesService = service();
    checkToken = 'a'; // the check's replica lags; the tree's replica already has b
    treeToken = 'b';
    expect((await categoriesService.hierarchyText()).tree).toBe('{"State b":null}');
    expect(treeReads).toBe(1);
    await categoriesService.hierarchyText(); // still a: not the token it was kept under
    expect(treeReads).toBe(2);
    checkToken = 'b';
    expect((await categoriesService.hierarchyText()).tree).toBe('{"State b":null}');
    expect(treeReads).toBe(2);
  });

  it('rows older than the check are kept under their own, older token: the next check builds again', async () => {
    const categoriesService = service();
    checkToken = 'b';
    treeToken = 'a'; // the tree's replica lags behind the check's
    expect((await categoriesService.hierarchyText()).tree).toBe('{"State a":null}');
    treeToken = 'b';
    expect((await categoriesService.hierarchyText()).tree).toBe('{"State b":null}');
    expect(treeReads).toBe(2);
    await categoriesService.hierarchyText();
    expect(treeReads).toBe(2);
  });

  it('statements that saw different tokens, or no token at all: nothing is kept', async () => {
    const categoriesService = service();
    translationToken = 'b'; // the translations came from another state than the tree
    await categoriesService.hierarchyText({ langid: 'de' });
    await categoriesService.hierarchyText({ langid: 'de' });
    expect(treeReads).toBe(2);
    [checkToken, treeToken, translationToken] = [null, null, null];
    await categoriesService.hierarchyText({ langid: 'de' });
    await categoriesService.hierarchyText({ langid: 'de' });
    expect(treeReads).toBe(4);
    [checkToken, treeToken, translationToken] = ['c', 'c', 'c'];
    await categoriesService.hierarchyText({ langid: 'de' });
    await categoriesService.hierarchyText({ langid: 'de' });
    expect(treeReads).toBe(5);
  });
});
