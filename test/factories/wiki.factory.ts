import { ContentVersions } from '../../src/platform/versions/content-versions';
import { DataSource } from 'typeorm';
import type { AuthenticatedUser } from '../../src/common/auth/authenticated-user';
import { parsePrivileges } from '../../src/common/auth/privileges';
import type { CreateWikiDto } from '../../src/modules/wikis/dto/wiki-body.dto';
import type { WikiDetailDto } from '../../src/modules/wikis/dto/wiki-response.dto';
import { WikiLanguageEntity } from '../../src/modules/wikis/entities/wiki-language.entity';
import { WikiRevisionEntity } from '../../src/modules/wikis/entities/wiki-revision.entity';
import { WikiEntity } from '../../src/modules/wikis/entities/wiki.entity';
import { titleHash } from '../../src/modules/wikis/wiki-namespaces';
import { WikiWriterService } from '../../src/modules/wikis/wiki-writer.service';
import type { UserEntity } from '../../src/modules/users/entities/user.entity';
import type { TestApp } from '../utils/test-app';

let sequence = 0;

export const asCaller = (user: UserEntity): AuthenticatedUser => ({
  userid: user.userid,
  username: user.username,
  privileges: parsePrivileges(user.privileges),
  tokenid: 0,
});

/** Creates a wiki through the writer service (the same path as POST /wikis). */
export function createWiki(
  t: TestApp,
  author: UserEntity,
  fields: Partial<CreateWikiDto> & { namespace?: string } = {},
): Promise<WikiDetailDto> {
  sequence += 1;
  return t.app
    .get(WikiWriterService)
    .create({ namespace: 'WIKI', title: `Page ${sequence}`, contents: '', ...fields }, asCaller(author));
}

export const createCategory = (
  t: TestApp,
  author: UserEntity,
  title: string,
  parent?: string,
  fields: Partial<CreateWikiDto> = {},
) =>
  createWiki(t, author, {
    namespace: 'CATEGORY',
    title,
    contents: `About ${title}.`,
    ...(parent ? { parent } : {}),
    ...fields,
  });

/**
 * Inserts `count` categories in bulk (multi-row INSERTs, no API; the category tree's token replaced after): a tree `fanout` wide per level, each
 * with one patrolled revision. Titles are `Cat <n>`. Returns the wikiids in insertion order.
 */
export async function bulkInsertCategories(
  t: TestApp,
  authorid: number,
  count: number,
  fanout = 10,
): Promise<number[]> {
  const dataSource = t.app.get(DataSource);
  const chunk = 500;
  const now = Math.floor(Date.now() / 1000);
  const ids: number[] = [];
  await dataSource.transaction(async (manager) => {
    let pending: { title: string; index: number; parentIndex: number }[] = [];
    const flush = async () => {
      if (!pending.length) return;
      const inserted = await manager.getRepository(WikiEntity).insert(
        pending.map((row) => ({
          namespace: 'CATEGORY',
          title: row.title,
          titleHash: titleHash(row.title),
          langid: 'en',
          parentWikiid: row.parentIndex < 0 ? null : ids[row.parentIndex],
          authorid,
          deleted: false,
          createdDate: now,
          modifiedDate: now,
        })),
      );
      const wikiids = inserted.identifiers.map((row) => Number(row.wikiid));
      const revisions = await manager.getRepository(WikiRevisionEntity).insert(
        wikiids.map((wikiid, k) => ({
          wikiid,
          langid: 'en',
          userid: authorid,
          date: now,
          patrolled: true,
          deleted: false,
          displayTitle: `Category ${pending[k].index}`,
          summary: '',
          contents: '',
          imageid: null,
          flags: '',
          data: '{}',
        })),
      );
      await manager.getRepository(WikiLanguageEntity).insert(
        wikiids.map((wikiid, k) => {
          const revisionid = Number(revisions.identifiers[k].revisionid);
          return { wikiid, langid: 'en', revisionid, headRevisionid: revisionid, sourceRevisionid: null };
        }),
      );
      ids.push(...wikiids);
      pending = [];
    };
    for (let i = 0; i < count; i++) {
      const parentIndex = i < fanout ? -1 : Math.floor(i / fanout) - 1;
      // A row's parent must have its id already: flush at each level boundary and every `chunk` rows.
      if (parentIndex >= ids.length || pending.length >= chunk) await flush();
      pending.push({ title: `Cat ${i}`, index: i, parentIndex });
    }
    await flush();
  });
  // As every category write does: readers' kept copies of the tree are stale now.
  await t.app.get(ContentVersions).bump('category-tree');
  return ids;
}
