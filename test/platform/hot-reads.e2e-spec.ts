import { Brackets, DataSource, In, type EntityManager } from 'typeorm';
import { TransactionService } from '../../src/database/transaction.service';
import { CommentsRepository } from '../../src/modules/comments/comments.repository';
import { CommentEntity } from '../../src/modules/comments/entities/comment.entity';
import { ReleaseEntity } from '../../src/modules/releases/entities/release.entity';
import { type LiveReleaseRow, ReleasesRepository } from '../../src/modules/releases/releases.repository';
import { GuideEntity } from '../../src/modules/guides/entities/guide.entity';
import type { GuideListFilter, SummaryRow } from '../../src/modules/guides/guide-rows';
import { GuidesRepository } from '../../src/modules/guides/guides.repository';
import { DocumentTagEntity } from '../../src/modules/tags/entities/document-tag.entity';
import { TagEntity } from '../../src/modules/tags/entities/tag.entity';
import { TagsRepository } from '../../src/modules/tags/tags.repository';
import { TeamMemberEntity } from '../../src/modules/teams/entities/team-member.entity';
import { TeamsRepository } from '../../src/modules/teams/teams.repository';
import { WikiEntity } from '../../src/modules/wikis/entities/wiki.entity';
import { titleHash, titleKey } from '../../src/modules/wikis/wiki-namespaces';
import { WikisRepository } from '../../src/modules/wikis/wikis.repository';
import type { DocType } from '../../src/platform/documents/document-registry';
import { createGuide } from '../factories/guide.factory';
import { createUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTeam } from '../factories/work-log.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';

/** Past 2^31: a bigint column read back through its transformer. */
const LATE = 4_102_444_800;

/**
 * The hot reads written as plain SQL (SqlReader) must answer what their query-builder versions answered:
 * the same rows in the same order, hydrated to the same classes and values. Each is checked against the
 * query-builder statement it replaced (the oracle, kept here) and against the rows it must pick, on data
 * built so that a wrong condition, order or language filter shows.
 */
describe('hot reads in hand-written SQL', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let userids: number[];

  beforeAll(async () => {
    t = await createTestApp();
    dataSource = t.app.get(DataSource);
    userids = [];
    for (let i = 0; i < 3; i += 1) userids.push((await createUser(t)).user.userid);
  });
  afterAll(() => t.close());

  const inTransaction = <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> =>
    t.app.get(TransactionService).run((tx) => work(tx.manager));

  /**
   * A transaction on a query runner of its own, outside the request context, rolled back at the end: reads
   * (which join only the context's transaction) do not see what it wrote. MySQL only: on SQLite, statements run
   * in the context's transaction whatever manager they go through.
   */
  const onOwnRunner = async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
    const runner = dataSource.createQueryRunner('master');
    await runner.connect();
    await runner.startTransaction();
    try {
      return await work(runner.manager);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  };
  // Query plans and connections differ per database: each of these runs on the one it is about (skipped on the
  // other; TEST_DB=mysql selects MySQL).
  const itOnMysql = usingMysql() ? it : it.skip;
  const itOnSqlite = usingMysql() ? it.skip : it;

  /** SQLite's plan (its details, one per line) of the statement `read` runs whose SQL contains `marker`. */
  const planOf = async (read: () => Promise<unknown>, marker: string): Promise<string> => {
    const statements: { sql: string; parameters: unknown[] }[] = [];
    const logger = dataSource.logger;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (sql, parameters) => {
      statements.push({ sql, parameters: (parameters ?? []) as unknown[] });
      logQuery(sql, parameters);
    };
    try {
      await read();
    } finally {
      logger.logQuery = logQuery;
    }
    const [statement] = statements.filter((s) => s.sql.includes(marker));
    const plan = await dataSource.query<{ detail: string }[]>(
      `EXPLAIN QUERY PLAN ${statement.sql}`,
      statement.parameters,
    );
    return plan.map((row) => row.detail).join('\n');
  };

  describe('CommentsRepository.publicForMany', () => {
    const oracle = (requests: { context: string; contextids: number[] }[]): Promise<CommentEntity[]> => {
      const wanted = requests.filter((r) => r.contextids.length);
      if (!wanted.length) return Promise.resolve([]);
      const query = dataSource.getRepository(CommentEntity).createQueryBuilder('c').where("c.status = 'public'");
      query.andWhere(
        new Brackets((any) => {
          wanted.forEach((r, i) =>
            any.orWhere(`(c.context = :context${i} AND c.contextid IN (:...ids${i}))`, {
              [`context${i}`]: r.context,
              [`ids${i}`]: r.contextids,
            }),
          );
        }),
      );
      return query.orderBy('c.commentid', 'ASC').getMany();
    };

    it('answers the public comments of every (context, ids) pair, by commentid, as TypeORM hydrated them', async () => {
      const repository = dataSource.getRepository(CommentEntity);
      const add = async (context: string, contextid: number, fields: Partial<CommentEntity> = {}) =>
        (
          await repository.save(
            repository.create({
              context,
              contextid,
              parentid: null,
              userid: userids[0],
              title: '',
              textRaw: `${context} ${contextid}`,
              status: 'public',
              langid: null,
              createdDate: 1,
              modifiedDate: 0,
              repliedDate: 0,
              ...fields,
            }),
          )
        ).commentid;
      // Interleaved between contexts, so that only ORDER BY commentid gives the expected order.
      const g1 = await add('hotguide', 1, { langid: 'en', modifiedDate: LATE });
      const s2 = await add('hotstep', 2, { userid: userids[1] });
      const g1deleted = await add('hotguide', 1, { status: 'deleted' });
      const g2 = await add('hotguide', 2);
      const s1 = await add('hotstep', 1); // step 1 is not asked for
      const g3 = await add('hotguide', 3); // guide 3 is not asked for
      const s3reply = await add('hotstep', 3, { parentid: s2, repliedDate: LATE });
      const g2reply = await add('hotguide', 2, { parentid: g2, title: 'Re' });
      const other = await add('hotother', 2); // same id, context not asked for

      const requests = [
        { context: 'hotguide', contextids: [1, 2] },
        { context: 'hotother', contextids: [] },
        { context: 'hotstep', contextids: [2, 3, 3] },
      ];
      const ours = await t.app.get(CommentsRepository).publicForMany(requests);
      expect(ours.map((c) => c.commentid)).toEqual([g1, s2, g2, s3reply, g2reply]);
      for (const left of [g1deleted, s1, g3, other]) expect(ours.map((c) => c.commentid)).not.toContain(left);
      ours.forEach((comment) => expect(comment).toBeInstanceOf(CommentEntity));
      expect(ours[0]).toMatchObject({ langid: 'en', modifiedDate: LATE, parentid: null });
      expect(ours[3]).toMatchObject({ parentid: s2, repliedDate: LATE, langid: null });
      expect(ours).toStrictEqual(await oracle(requests));

      // One context alone, and nothing asked.
      const single = [{ context: 'hotstep', contextids: [1] }];
      expect((await t.app.get(CommentsRepository).publicForMany(single)).map((c) => c.commentid)).toEqual([s1]);
      expect(await t.app.get(CommentsRepository).publicForMany(single)).toStrictEqual(await oracle(single));
      expect(await t.app.get(CommentsRepository).publicForMany([])).toEqual([]);
      expect(await t.app.get(CommentsRepository).publicForMany([{ context: 'hotguide', contextids: [] }])).toEqual([]);
    });
  });

  describe('TeamsRepository.teamIdsByUser', () => {
    it('maps every asked user to its team ids in ascending order, in or out of a transaction', async () => {
      const [a, b, c] = userids;
      const t1 = await createTeam(t, 'Hot reads one', []);
      const t2 = await createTeam(t, 'Hot reads two', [b]);
      const t3 = await createTeam(t, 'Hot reads three', []);
      // Inserted out of team order: only ORDER BY teamid gives ascending lists.
      const members = dataSource.getRepository(TeamMemberEntity);
      await members.save({ teamid: t3, userid: a, joinedDate: 1 });
      await members.save({ teamid: t1, userid: a, joinedDate: 2 });
      const teams = t.app.get(TeamsRepository);

      const answer = await teams.teamIdsByUser([a, b, c, 999_999]);
      expect([...answer]).toEqual([
        [a, [t1, t3]],
        [b, [t2]],
        [c, []],
        [999_999, []],
      ]);
      expect(await teams.teamIdsByUser([])).toEqual(new Map());

      // Inside TransactionService.run, a membership added in the open transaction is seen.
      const inside = await inTransaction(async (manager) => {
        await manager.getRepository(TeamMemberEntity).insert({ teamid: t2, userid: c, joinedDate: 3 });
        return teams.teamIdsByUser([c, a]);
      });
      expect([...inside]).toEqual([
        [c, [t2]],
        [a, [t1, t3]],
      ]);
    });

    itOnMysql("does not read another connection's uncommitted rows", async () => {
      const [, b] = userids;
      const teams = t.app.get(TeamsRepository);
      const t4 = await createTeam(t, 'Hot reads four', []);
      const outside = await onOwnRunner(async (manager) => {
        await manager.getRepository(TeamMemberEntity).insert({ teamid: t4, userid: b, joinedDate: 4 });
        return teams.teamIdsByUser([b]);
      });
      expect(outside.get(b)).not.toContain(t4);
    });
  });

  describe('ReleasesRepository.live', () => {
    const oracle = async (doctype: DocType, docids: number[], langidOf: (docid: number) => string) => {
      const rows = await dataSource
        .createQueryBuilder(ReleaseEntity, 'r')
        .where('r.doctype = :doctype AND r.status = :status', { doctype, status: 'released' })
        .andWhere('r.docid IN (:...docids)', { docids: [...new Set(docids)] })
        .orderBy('r.releaseid', 'ASC')
        .getMany();
      const live = new Map<number, LiveReleaseRow>();
      for (const r of rows)
        if (r.langid === langidOf(r.docid)) {
          const { releaseid, docid, langid, revisionid, versionMajor, versionMinor } = r;
          live.set(r.docid, { releaseid, docid, langid, revisionid, versionMajor, versionMinor });
        }
      return live;
    };

    it("answers each document's newest released release in its language, of the asked doctype only", async () => {
      let version = 0;
      const add = async (
        doctype: DocType,
        docid: number,
        langid: string,
        status: ReleaseEntity['status'],
        more = {},
      ) => {
        version += 1;
        const released = status === 'released' || status === 'removed';
        // Looked up at each call: inside a transaction, dataSource.manager is the transaction's.
        const repository = dataSource.getRepository(ReleaseEntity);
        return (
          await repository.save(
            repository.create({
              doctype,
              docid,
              langid,
              revisionid: 100 + version,
              userid: userids[0],
              status,
              title: `Release ${version}`,
              notes: '',
              type: 'major',
              versionMajor: version,
              versionMinor: 0,
              releasedVersion: released ? `${version}.0` : null,
              pendingSlot: status === 'pending' ? 1 : null,
              initDate: 1,
              releaseDate: released ? LATE : null,
              approvalRequestid: null,
              periodicReviewConfirmed: false,
              ...more,
            }),
          )
        ).releaseid;
      };
      const docA = 900_001;
      const docB = 900_002;
      const docC = 900_003;
      await add('GUIDE', docA, 'en', 'released'); // older
      const aGerman = await add('GUIDE', docA, 'de', 'released', { periodicReviewConfirmed: true });
      const aNew = await add('GUIDE', docA, 'en', 'released', { approvalRequestid: 7 });
      await add('GUIDE', docA, 'en', 'pending');
      await add('GUIDE', docA, 'en', 'removed');
      const bLive = await add('GUIDE', docB, 'fr', 'released');
      await add('WIKI', docB, 'fr', 'released'); // newer, of another doctype
      await add('GUIDE', docC, 'en', 'cancelled');
      const releases = t.app.get(ReleasesRepository);

      const langs: Record<number, string> = { [docA]: 'en', [docB]: 'fr', [docC]: 'en' };
      const langidOf = (docid: number) => langs[docid] ?? '';
      const docids = [docA, docB, docA, docC, 900_999];
      const live = await releases.live('GUIDE', docids, langidOf);
      expect([...live].map(([docid, r]) => [docid, r.releaseid])).toEqual([
        [docA, aNew],
        [docB, bLive],
      ]);
      expect(live.get(docA)).toStrictEqual({
        releaseid: aNew,
        docid: docA,
        langid: 'en',
        revisionid: 103,
        versionMajor: 3,
        versionMinor: 0,
      });
      expect(live).toStrictEqual(await oracle('GUIDE', docids, langidOf));

      // Another language: the German release.
      const german = await releases.live('GUIDE', [docA], () => 'de');
      expect(german.get(docA)).toMatchObject({ releaseid: aGerman, revisionid: 102 });
      expect(german).toStrictEqual(await oracle('GUIDE', [docA], () => 'de'));
      expect(await releases.live('GUIDE', [], langidOf)).toEqual(new Map());

      // Like every repository read, it reads in the transaction the work runs in.
      const inside = await inTransaction(async () => {
        const fresh = await add('GUIDE', docC, 'en', 'released');
        return { fresh, live: await releases.live('GUIDE', [docC], langidOf) };
      });
      expect(inside.live.get(docC)?.releaseid).toBe(inside.fresh);
    });

    // SQLite plans without statistics: it took idx_releases_doctype (doctype, status) and walked every
    // released document of the type (0.55 ms per guide detail with 10,000 released guides in the bench).
    itOnSqlite('looks the documents up by index instead of walking every released release', async () => {
      const details = await planOf(
        () => t.app.get(ReleasesRepository).live('GUIDE', [900_001, 900_002], () => 'en'),
        'JOIN releases r',
      );
      expect(details).toContain('SEARCH r USING INDEX idx_releases_document (doctype=? AND docid=?)');
      // Only the one-row token the releases are joined to is scanned.
      const scans = details.split('\n').filter((line) => /SCAN|TEMP B-TREE/.test(line));
      expect(scans.map((line) => line.trim())).toEqual(['SCAN CONSTANT ROW', 'SCAN v']);
    });
  });

  describe('GuidesRepository.listRows', () => {
    /** The page the list must show, chosen with the query builder: the ids, in order. */
    const oracleIds = async (filter: GuideListFilter): Promise<number[]> => {
      const query = dataSource.getRepository(GuideEntity).createQueryBuilder('g').select('g.guideid', 'guideid');
      query.where('g.deleted = :deleted', { deleted: false });
      if (!filter.includePrivate) query.andWhere('g.public = :public', { public: true });
      if (filter.guideids)
        query.andWhere('g.guideid IN (:...ids)', { ids: filter.guideids.length ? filter.guideids : [0] });
      else {
        if (filter.types) query.andWhere('g.type IN (:...types)', { types: filter.types });
        if (filter.modifiedSince !== undefined)
          query.andWhere('g.modifiedDate >= :since', { since: filter.modifiedSince });
        if (filter.featuredFlags) {
          const flags = filter.featuredFlags;
          query.andWhere(
            new Brackets((any) =>
              flags.forEach((flag, i) => any.orWhere(`g.flags LIKE :f${i}`, { [`f${i}`]: `%${flag}%` })),
            ),
          );
        }
        query.offset(filter.offset).limit(filter.limit);
      }
      query.orderBy('g.guideid', filter.order);
      return (await query.getRawMany<{ guideid: number }>()).map((r) => Number(r.guideid));
    };

    it('answers the page the filters choose, each row as summaryRows reads it, grants only when asked', async () => {
      const author = await createUser(t, { privilege: 'Admin' });
      await createCategory(t, author.user, 'Listed 0');
      await createCategory(t, author.user, 'Listed 1');
      const created: number[] = [];
      for (let i = 0; i < 9; i += 1)
        created.push(
          (await createGuide(t, author.user, { category: `Listed ${i % 2}`, title: `Listed ${i}` })).guideid,
        );
      const guides = dataSource.getRepository(GuideEntity);
      await guides.update({ guideid: In(created) }, { public: true });
      await guides.update({ guideid: created[1] }, { public: false });
      await guides.update({ guideid: created[2] }, { deleted: true });
      await guides.update({ guideid: In([created[3], created[4]]) }, { type: 'teardown' });
      await guides.update({ guideid: In([created[5], created[6]]) }, { modifiedDate: LATE });
      await guides.update({ guideid: created[7] }, { flags: 'GUIDE_STARRED,ON_FEATURED_LIST' });
      await guides.update({ guideid: created[8] }, { flags: 'GUIDE_STARRED' });
      await dataSource.query('INSERT INTO guide_user_grants (guideid, userid, date) VALUES (?, ?, ?)', [
        created[3],
        userids[1],
        1,
      ]);

      const repository = t.app.get(GuidesRepository);
      const base: GuideListFilter = { includePrivate: false, order: 'ASC', offset: 0, limit: 200 };
      const filters: GuideListFilter[] = [
        base,
        { ...base, order: 'DESC', offset: 2, limit: 3 },
        { ...base, includePrivate: true },
        { ...base, types: ['teardown'] },
        { ...base, types: ['teardown', 'replacement'], offset: 1, limit: 2 },
        { ...base, modifiedSince: LATE },
        { ...base, featuredFlags: ['ON_FEATURED_LIST'] },
        { ...base, guideids: [created[8], created[1], created[2], created[3], 999_999] },
        { ...base, guideids: [created[1]], includePrivate: true },
        { ...base, guideids: [] },
      ];
      for (const filter of filters) {
        const ids = await oracleIds(filter);
        const byId = new Map((await repository.summaryRows(ids, 'summary')).map((row) => [row.guide.guideid, row]));
        // A list row carries only the guide columns a summary needs (SummaryRow); the rest is as summaryRows reads it.
        const listed = (row: SummaryRow | undefined) =>
          row && {
            ...row,
            guide: {
              guideid: row.guide.guideid,
              authorid: row.guide.authorid,
              langid: row.guide.langid,
              public: row.guide.public,
            },
          };
        const expected = ids.map((id) => listed(byId.get(id)));
        const withGrants = await repository.listRows(filter, { grants: true });
        expect(withGrants.map(listed)).toStrictEqual(expected);
        for (const row of withGrants) expect((row.guide as Partial<GuideEntity>).title).toBeUndefined();
        expect((await repository.listRows(filter, { grants: false })).map(listed)).toStrictEqual(
          expected.map((row) => row && { ...row, grantedUserIds: [], grantedTeamIds: [] }),
        );
      }
      // The data is such that each filter chose something different.
      expect(await oracleIds(base)).toEqual(expect.arrayContaining([created[0], created[3], created[8]]));
      expect(await oracleIds(base)).not.toEqual(expect.arrayContaining([created[1]]));
      expect(await oracleIds({ ...base, types: ['teardown'] })).toEqual([created[3], created[4]]);
      expect(await oracleIds({ ...base, modifiedSince: LATE })).toEqual([created[5], created[6]]);
      expect(await oracleIds({ ...base, featuredFlags: ['ON_FEATURED_LIST'] })).toEqual([created[7]]);
      const granted = (await repository.listRows({ ...base, types: ['teardown'] }, { grants: true }))[0];
      expect(granted.grantedUserIds).toEqual([userids[1]]);
    });

    // Joined page first, SQLite streams the page (a co-routine) in its order: materialized and joined from the
    // guides side, it sorted the joined rows again (a temporary B-tree; 1.5 ms instead of 1.0 for 200 guides).
    itOnSqlite('streams the page in its order instead of sorting the joined rows', async () => {
      const details = await planOf(
        () =>
          t.app
            .get(GuidesRepository)
            .listRows({ includePrivate: false, order: 'DESC', offset: 1, limit: 2 }, { grants: false }),
        'FROM (SELECT p.guideid',
      );
      expect(details).toContain('CO-ROUTINE page');
      expect(details).not.toMatch(/TEMP B-TREE|SCAN g\b|SCAN r\b/);
    });
  });

  describe('TagsRepository.namesOf', () => {
    const oracle = async (kind: string, docids: number[]) =>
      (
        await dataSource
          .getRepository(DocumentTagEntity)
          .createQueryBuilder('dt')
          .innerJoin(TagEntity, 't', 't.tagid = dt.tagid')
          .select('dt.docid', 'docid')
          .addSelect('t.name', 'name')
          .where('dt.doc_kind = :kind', { kind })
          .andWhere('dt.docid IN (:...docids)', { docids })
          .getRawMany<{ docid: number | string; name: string }>()
      ).map((row) => ({ docid: Number(row.docid), name: row.name }));
    const sorted = (pairs: { docid: number; name: string }[]) =>
      [...pairs].sort((a, b) => a.docid - b.docid || a.name.localeCompare(b.name));

    it('answers the (docid, name) pairs of the kind and documents asked, in the transaction it runs in', async () => {
      const tags = t.app.get(TagsRepository);
      const tag = async (name: string) => tags.ensureTag(name, name.toLowerCase());
      const [alpha, beta, gamma] = [await tag('Alpha'), await tag('Beta'), await tag('Gamma')];
      const link = (docKind: string, docid: number, tagid: number) =>
        dataSource.getRepository(DocumentTagEntity).insert({ docKind, docid, tagid, createdDate: 1 });
      await link('guide', 800_001, alpha);
      await link('guide', 800_001, gamma);
      await link('guide', 800_002, beta);
      await link('wiki', 800_001, beta); // another kind, same id
      await link('guide', 800_003, alpha); // not asked for

      const asked = [800_001, 800_002, 800_004];
      const found = await tags.namesOf('guide', asked);
      expect(sorted(found)).toEqual([
        { docid: 800_001, name: 'Alpha' },
        { docid: 800_001, name: 'Gamma' },
        { docid: 800_002, name: 'Beta' },
      ]);
      expect(sorted(found)).toStrictEqual(sorted(await oracle('guide', asked)));
      expect(await tags.namesOf('wiki', [800_001])).toStrictEqual([{ docid: 800_001, name: 'Beta' }]);
      expect(await tags.namesOf('guide', [])).toEqual([]);

      const inside = await inTransaction(async () => {
        await link('guide', 800_002, gamma);
        return tags.namesOf('guide', [800_002]);
      });
      expect(sorted(inside)).toEqual([
        { docid: 800_002, name: 'Beta' },
        { docid: 800_002, name: 'Gamma' },
      ]);
    });
  });

  describe('WikisRepository.findByTitles', () => {
    const oracle = async (namespace: string, titles: string[], manager: EntityManager = dataSource.manager) => {
      const rows = await manager
        .getRepository(WikiEntity)
        .findBy({ namespace, titleHash: In([...new Set(titles.map(titleHash))]) });
      const wanted = new Set(titles.map(titleKey));
      return rows.filter((row) => wanted.has(titleKey(row.title)));
    };

    it('answers the wikis of the namespace with these titles in any case, deleted ones included', async () => {
      const repository = dataSource.getRepository(WikiEntity);
      const add = async (namespace: string, title: string, fields: Partial<WikiEntity> = {}) =>
        (
          await repository.save(
            repository.create({
              namespace,
              title,
              titleHash: titleHash(title),
              langid: 'en',
              parentWikiid: null,
              authorid: userids[0],
              deleted: false,
              createdDate: 1,
              modifiedDate: LATE,
              ...fields,
            }),
          )
        ).wikiid;
      const beta = await add('ITEM', 'Hot Beta');
      const alpha = await add('ITEM', 'Hot Alpha', { deleted: true });
      await add('CATEGORY', 'Hot Beta'); // another namespace
      // A row whose hash is that of an asked title but whose title is not: only the JS filter drops it.
      await add('ITEM', 'Hot Forged', { titleHash: titleHash('Hot Gamma') });
      const wikis = t.app.get(WikisRepository);

      const titles = ['Hot Alpha', 'hot BETA', 'Hot Gamma', 'Hot Alpha', 'Hot Missing']; // any case
      const found = await wikis.findByTitles('ITEM', titles);
      expect(found.map((w) => w.wikiid).sort((x, y) => x - y)).toEqual([beta, alpha].sort((x, y) => x - y));
      found.forEach((wiki) => expect(wiki).toBeInstanceOf(WikiEntity));
      expect(found.find((w) => w.wikiid === alpha)).toMatchObject({ deleted: true, modifiedDate: LATE });
      expect(found.find((w) => w.wikiid === beta)).toMatchObject({ deleted: false, parentWikiid: null });
      expect(found).toStrictEqual(await oracle('ITEM', titles));
      expect(await wikis.findByTitles('ITEM', [])).toEqual([]);

      // In the open transaction, a wiki created in it is found.
      const inside = await inTransaction(async (manager) => {
        const created = await manager.getRepository(WikiEntity).insert(newWiki('Hot Delta'));
        const ours = await wikis.findByTitles('ITEM', ['Hot Delta', 'Hot Beta']);
        const wikiid = Number(created.identifiers[0].wikiid);
        return { wikiid, ours, theirs: await oracle('ITEM', ['Hot Delta', 'Hot Beta'], manager) };
      });
      expect(inside.ours.map((w) => w.wikiid).sort((x, y) => x - y)).toEqual([beta, inside.wikiid]);
      expect(inside.ours).toStrictEqual(inside.theirs);
    });

    itOnMysql("does not read another connection's uncommitted rows", async () => {
      const wikis = t.app.get(WikisRepository);
      const outside = await onOwnRunner(async (manager) => {
        await manager.getRepository(WikiEntity).insert(newWiki('Hot Epsilon'));
        return wikis.findByTitles('ITEM', ['Hot Epsilon']);
      });
      expect(outside).toEqual([]);
    });
  });
});

/** A live ITEM wiki's row. */
function newWiki(title: string): Omit<WikiEntity, 'wikiid'> {
  return {
    namespace: 'ITEM',
    title,
    titleHash: titleHash(title),
    langid: 'de',
    parentWikiid: null,
    authorid: 1,
    deleted: false,
    createdDate: 2,
    modifiedDate: 2,
  };
}
