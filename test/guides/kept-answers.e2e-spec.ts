import type { LightMyRequestResponse } from 'fastify';
import { answerSources } from '../../src/database/answer-sources';
import { TransactionService } from '../../src/database/transaction.service';
import { GuideQueriesService } from '../../src/modules/guides/guide-queries.service';
import { GUIDE_ANSWER_SOURCES } from '../../src/modules/guides/guide-reader.service';
import { GuidesRepository } from '../../src/modules/guides/guides.repository';
import { EventBus } from '../../src/platform/events/event-bus';
import { ContentVersions } from '../../src/platform/versions/content-versions';
import { createTeam } from '../approvals/approvals-test-helpers';
import { addStep, createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { tablesRead } from '../utils/tables-read';
import { usingMysql } from '../utils/test-config';

const api = (path: string) => `/api/2.0${path}`;

interface Detail {
  guideid: number;
  title: string;
  revisionid: number;
  steps: { stepid: number; comments: { commentid: number; author: { username: string } }[] }[];
  comments: { commentid: number }[];
  author: { username: string; teams: number[] };
  prerequisites: { guideid: number; title: string }[];
}

/**
 * An anonymous guide detail is kept whole under the `answers-guide` token and its guide's own token, a list page
 * under `answers` (guides.controller.ts), and served again with one statement (the tokens) until a write changes
 * a table it is built from (answer-sources.ts): for a detail, a write of that guide or of a table all guides share.
 */
describe('Guide detail: anonymous answers kept whole', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  let commenter: CreatedUser;
  const versions = () => t.app.get(ContentVersions);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    commenter = await createUser(t);
    await createCategory(t, admin.user, 'Toaster');
    // On MySQL the test database is emptied before each file's app starts, token rows included: without the
    // `answers` row nothing is kept (no write would announce a change). The migrations' rows are put back.
    await versions().bump('answers');
    await versions().bump('answers-guide');
    await versions().bump('releases');
  });
  afterAll(() => t.close());

  const get = (guideid: number, query = '') => t.inject({ method: 'GET', url: api(`/guides/${guideid}${query}`) });

  /**
   * The anonymous answer, checked against the object path (`?pretty`, never kept): same status, same
   * content. A cached answer served after a change it missed fails here.
   */
  const anonymous = async (guideid: number): Promise<LightMyRequestResponse> => {
    const plain = await get(guideid);
    const fresh = await get(guideid, '?pretty');
    expect(plain.statusCode).toBe(fresh.statusCode);
    if (plain.statusCode === 200) expect(plain.json()).toEqual(fresh.json());
    return plain;
  };

  const settled = async () => t.app.get(EventBus).drain();

  it('answers a second anonymous read with one statement: the same bytes and entity tag, 304 when asked', async () => {
    const guide = await createGuide(t, author.user, { category: 'Toaster', public: true });
    await addStep(t, author.user, guide.guideid);
    await settled();
    const first = await get(guide.guideid);
    const second = await get(guide.guideid);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(sqlCount(second)).toBe(1);
    const notModified = await t.inject({
      method: 'GET',
      url: api(`/guides/${guide.guideid}`),
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(notModified.statusCode).toBe(304);
    expect(sqlCount(notModified)).toBe(1);
    // Signed-in callers are not served cached answers (theirs carry can_edit, favorited, completed).
    const signedIn = await t.as(commenter.token, { method: 'GET', url: api(`/guides/${guide.guideid}`) });
    expect(sqlCount(signedIn)).toBeGreaterThan(1);
    // Options are part of the key.
    const excluded = await get(guide.guideid, '?excludePrerequisiteSteps');
    expect(sqlCount(excluded)).toBeGreaterThan(1);
    expect(sqlCount(await get(guide.guideid, '?excludePrerequisiteSteps'))).toBe(1);
  });

  it('answers a URL answered before ahead of the route (ResponseCacheFront): same bytes and headers', async () => {
    const guide = await createGuide(t, author.user, { category: 'Toaster', public: true });
    await settled();
    const route = jest.spyOn(t.app.get(GuideQueriesService), 'detail');
    try {
      const url = api(`/guides/${guide.guideid}?langid=en`);
      const built = await t.inject({ method: 'GET', url });
      expect(route).toHaveBeenCalledTimes(1);
      const front = await t.inject({ method: 'GET', url });
      expect(route).toHaveBeenCalledTimes(1);
      expect(front.statusCode).toBe(200);
      expect(front.body).toBe(built.body);
      expect(sqlCount(front)).toBe(1);
      // Every header the route gave, but those that name the request or count it.
      const perRequest = [
        'x-request-id',
        'date',
        'ratelimit-remaining',
        'ratelimit-reset',
        'x-sql-statements',
        'x-sql-round-trips',
      ];
      const headers = (res: LightMyRequestResponse) =>
        Object.fromEntries(Object.entries(res.headers).filter(([name]) => !perRequest.includes(name)));
      expect(headers(front)).toEqual(headers(built));
      expect(front.headers.etag).toBeDefined();
      const notModified = await t.inject({
        method: 'GET',
        url,
        headers: { 'if-none-match': String(built.headers.etag) },
      });
      expect(notModified.statusCode).toBe(304);
      expect(route).toHaveBeenCalledTimes(1);
      // Signed in, `?pretty` and HEAD go to the route; so does a URL not answered before.
      await t.as(commenter.token, { method: 'GET', url });
      expect(route).toHaveBeenCalledTimes(2);
      await t.inject({ method: 'GET', url: `${url}&pretty` });
      expect(route).toHaveBeenCalledTimes(3);
      await t.inject({ method: 'GET', url: api(`/guides/${guide.guideid}`) });
      expect(route).toHaveBeenCalledTimes(4);
      // After a change the URL is answered by the route again (the cached answer is gone), then from the front.
      const edited = await t.as(author.token, {
        method: 'PATCH',
        url: api(`/guides/${guide.guideid}?revisionid=${guide.revisionid}`),
        payload: { title: 'Toaster lever' },
      });
      expect(edited.statusCode).toBe(200);
      // What the edit's events write (derived data) is written before the reads.
      await settled();
      const fresh = await t.inject({ method: 'GET', url });
      expect(fresh.json<Detail>().title).toBe('Toaster lever');
      expect(route).toHaveBeenCalledTimes(5);
      expect((await t.inject({ method: 'GET', url })).body).toBe(fresh.body);
      expect(route).toHaveBeenCalledTimes(5);
      // A deleted guide: 404 from the route, never a cached answer.
      const removed = await t.as(author.token, {
        method: 'DELETE',
        url: api(`/guides/${guide.guideid}?revisionid=${fresh.json<Detail>().revisionid}`),
      });
      expect(removed.statusCode).toBeLessThan(300);
      expect((await t.inject({ method: 'GET', url })).statusCode).toBe(404);
    } finally {
      route.mockRestore();
    }
  });

  it('keeps an anonymous page of the guide list whole, per query, until a change', async () => {
    const guide = await createGuide(t, author.user, { category: 'Toaster', public: true });
    await settled();
    const list = (query: string, token?: string) =>
      token
        ? t.as(token, { method: 'GET', url: api(`/guides${query}`) })
        : t.inject({ method: 'GET', url: api(`/guides${query}`) });
    const first = await list('?limit=200');
    const second = await list('?limit=200');
    expect(second.body).toBe(first.body);
    expect(sqlCount(second)).toBe(1);
    expect(sqlCount(await list('?limit=200&order=DESC'))).toBeGreaterThan(1);
    expect(sqlCount(await list('?limit=200&order=DESC'))).toBe(1);
    expect(sqlCount(await list(`?guideids=${guide.guideid}`))).toBeGreaterThan(1);
    expect(sqlCount(await list('?limit=200', commenter.token))).toBeGreaterThan(1);
    // An edit shows at once, in every kept page.
    const edited = await t.as(author.token, {
      method: 'PATCH',
      url: api(`/guides/${guide.guideid}?revisionid=${guide.revisionid}`),
      payload: { title: 'Toaster crumb tray' },
    });
    expect(edited.statusCode).toBe(200);
    for (const query of ['?limit=200', '?limit=200&order=DESC', `?guideids=${guide.guideid}`]) {
      const page = await list(query);
      expect(page.json()).toEqual((await list(`${query}&pretty`)).json());
      expect(page.json<{ guideid: number; title: string }[]>().find((g) => g.guideid === guide.guideid)?.title).toBe(
        'Toaster crumb tray',
      );
    }
  });

  it("keeps every other guide's cached detail when one guide is written, and no list page", async () => {
    const seven = await createGuide(t, author.user, { category: 'Toaster', public: true, title: 'Seven' });
    const eight = await createGuide(t, author.user, { category: 'Toaster', public: true, title: 'Eight' });
    const showsSeven = await createGuide(t, author.user, {
      category: 'Toaster',
      public: true,
      prerequisites: [seven.guideid],
    });
    await settled();
    const listPage = () => t.inject({ method: 'GET', url: api('/guides?limit=200') });
    // After a write's derived updates (search index, category pages, reputation) are done.
    const warm = async () => {
      await settled();
      for (const guide of [seven, eight, showsSeven]) await anonymous(guide.guideid);
      await listPage();
      for (const guide of [seven, eight, showsSeven]) expect(sqlCount(await get(guide.guideid))).toBe(1);
      expect(sqlCount(await listPage())).toBe(1);
    };
    await warm();

    // Guide seven edited through the API: its own answer, the answer showing it as a prerequisite and the list
    // are built again; guide eight's is served as kept.
    const edited = await t.as(author.token, {
      method: 'PATCH',
      url: api(`/guides/${seven.guideid}?revisionid=${seven.revisionid}`),
      payload: { title: 'Seven, edited' },
    });
    expect(edited.statusCode).toBe(200);
    await settled();
    expect(sqlCount(await get(eight.guideid))).toBe(1);
    expect(sqlCount(await get(seven.guideid))).toBeGreaterThan(1);
    expect((await anonymous(seven.guideid)).json<Detail>().title).toBe('Seven, edited');
    expect(sqlCount(await get(showsSeven.guideid))).toBeGreaterThan(1);
    expect((await anonymous(showsSeven.guideid)).json<Detail>().prerequisites[0].title).toBe('Seven, edited');
    const page = await listPage();
    expect(sqlCount(page)).toBeGreaterThan(1);
    expect(page.json<{ guideid: number; title: string }[]>().find((g) => g.guideid === seven.guideid)?.title).toBe(
      'Seven, edited',
    );

    // A step added to seven, and a private guide created: eight's answer is still kept. (A public guide created
    // raises its author's reputation, which the answers of every guide of theirs show.)
    await warm();
    await addStep(t, author.user, seven.guideid);
    await createGuide(t, author.user, { category: 'Toaster', public: false });
    await settled();
    expect(sqlCount(await get(eight.guideid))).toBe(1);
    expect(sqlCount(await get(seven.guideid))).toBeGreaterThan(1);
    await anonymous(seven.guideid);

    // A write that names no guide (a statement of no transaction, as a script would) drops every guide's answer.
    await warm();
    await t.dataSource.query('UPDATE guides SET title = ? WHERE guideid = ?', ['Seven by script', seven.guideid]);
    expect(sqlCount(await get(eight.guideid))).toBeGreaterThan(1);
    // So does a write of a table every guide's answer shares (the author renamed).
    await warm();
    await t.dataSource.query('UPDATE users SET username = ? WHERE userid = ?', ['Toaster author', author.user.userid]);
    expect(sqlCount(await get(eight.guideid))).toBeGreaterThan(1);
    expect((await anonymous(eight.guideid)).json<Detail>().author.username).toBe('Toaster author');

    // Eight given a prerequisite: from then on another guide's edit changes its answer; without it, not again.
    const prerequisites = async (ids: number[]) => {
      const current = (await get(eight.guideid, '?pretty')).json<Detail>();
      const res = await t.as(author.token, {
        method: 'PATCH',
        url: api(`/guides/${eight.guideid}?revisionid=${current.revisionid}`),
        payload: { prerequisites: ids },
      });
      expect(res.statusCode).toBe(200);
      expect((await anonymous(eight.guideid)).json<Detail>().prerequisites.map((p) => p.guideid)).toEqual(ids);
      await get(eight.guideid);
      expect(sqlCount(await get(eight.guideid))).toBe(1);
    };
    const editSeven = async (title: string) => {
      const current = (await get(seven.guideid, '?pretty')).json<Detail>();
      const res = await t.as(author.token, {
        method: 'PATCH',
        url: api(`/guides/${seven.guideid}?revisionid=${current.revisionid}`),
        payload: { title },
      });
      expect(res.statusCode).toBe(200);
      await settled();
    };
    await prerequisites([seven.guideid]);
    await editSeven('Seven, once more');
    expect(sqlCount(await get(eight.guideid))).toBeGreaterThan(1);
    expect((await anonymous(eight.guideid)).json<Detail>().prerequisites[0].title).toBe('Seven, once more');
    await prerequisites([]);
    await editSeven('Seven, a third time');
    expect(sqlCount(await get(eight.guideid))).toBe(1);
  });

  it('serves every guide fresh after a burst of parallel edits of different guides', async () => {
    const guides = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createGuide(t, author.user, { category: 'Toaster', public: true, title: `Burst ${i}` }),
      ),
    );
    await settled();
    for (const guide of guides) expect(sqlCount(await anonymous(guide.guideid))).toBeGreaterThan(0);
    const edits = await Promise.all(
      guides.map((guide, i) =>
        t.as(author.token, {
          method: 'PATCH',
          url: api(`/guides/${guide.guideid}?revisionid=${guide.revisionid}`),
          payload: { title: `Burst ${i}, edited` },
        }),
      ),
    );
    expect(edits.map((res) => res.statusCode)).toEqual(guides.map(() => 200));
    for (const [i, guide] of guides.entries())
      expect((await anonymous(guide.guideid)).json<Detail>().title).toBe(`Burst ${i}, edited`);
  });

  it('serves a fresh answer after every kind of change it is built from, through the API or not', async () => {
    const prerequisite = await createGuide(t, author.user, { category: 'Toaster', public: true, title: 'Before' });
    const prerequisiteStepid = (await addStep(t, author.user, prerequisite.guideid)).steps[0].stepid;
    const created = await createGuide(t, author.user, {
      category: 'Toaster',
      public: true,
      prerequisites: [prerequisite.guideid],
    });
    const withStep = await addStep(t, author.user, created.guideid);
    const stepid = withStep.steps[withStep.steps.length - 1].stepid;
    await settled();
    const id = created.guideid;
    let body = (await anonymous(id)).json<Detail>();
    expect(sqlCount(await get(id))).toBe(1);

    // The guide edited through the API.
    const edited = await t.as(author.token, {
      method: 'PATCH',
      url: api(`/guides/${id}?revisionid=${body.revisionid}`),
      payload: { title: 'Toaster heating element' },
    });
    expect(edited.statusCode).toBe(200);
    body = (await anonymous(id)).json<Detail>();
    expect(body.title).toBe('Toaster heating element');

    // A comment on a step, a reply, the comment deleted.
    const comment = await t.as(commenter.token, {
      method: 'POST',
      url: api(`/comments/step/${stepid}`),
      payload: { text: 'Which screwdriver fits?' },
    });
    expect(comment.statusCode).toBe(201);
    body = (await anonymous(id)).json<Detail>();
    expect(body.steps.find((s) => s.stepid === stepid)?.comments.map((c) => c.commentid)).toEqual([
      comment.json<{ commentid: number }>().commentid,
    ]);
    const reply = await t.as(author.token, {
      method: 'POST',
      url: api(`/comments/step/${stepid}`),
      payload: { text: 'A Torx T10 screwdriver.', parentid: comment.json<{ commentid: number }>().commentid },
    });
    expect(reply.statusCode).toBe(201);
    await anonymous(id);
    // On an inlined prerequisite's step.
    expect(
      (
        await t.as(commenter.token, {
          method: 'POST',
          url: api(`/comments/step/${prerequisiteStepid}`),
          payload: { text: 'Unplug it first, please.' },
        })
      ).statusCode,
    ).toBe(201);
    body = (await anonymous(id)).json<Detail>();
    expect(body.steps[0].comments).toHaveLength(1);
    const removed = await t.as(commenter.token, {
      method: 'DELETE',
      url: api(`/comments/${comment.json<{ commentid: number }>().commentid}`),
    });
    expect(removed.statusCode).toBe(204);
    body = (await anonymous(id)).json<Detail>();
    expect(body.steps.find((s) => s.stepid === stepid)?.comments).toEqual([]);

    // The commenter renamed through the API; the author renamed and put in a team by statements of no
    // transaction (as a script would): each replaces the token right after it.
    const renamed = await t.as(commenter.token, {
      method: 'PATCH',
      url: api(`/users/${commenter.user.userid}`),
      payload: { username: 'Renamed commenter' },
    });
    expect(renamed.statusCode).toBe(200);
    body = (await anonymous(id)).json<Detail>();
    expect(body.steps[0].comments[0].author.username).toBe('Renamed commenter');
    await t.dataSource.query('UPDATE users SET username = ? WHERE userid = ?', ['Renamed author', author.user.userid]);
    body = (await anonymous(id)).json<Detail>();
    expect(body.author.username).toBe('Renamed author');
    const team = await createTeam(t, 'Bakers', [author.user.userid]);
    body = (await anonymous(id)).json<Detail>();
    expect(body.author.teams).toContain(team);

    // The prerequisite edited: its summary in the answer changes.
    const before = (await get(prerequisite.guideid, '?pretty')).json<Detail>();
    expect(
      (
        await t.as(author.token, {
          method: 'PATCH',
          url: api(`/guides/${prerequisite.guideid}?revisionid=${before.revisionid}`),
          payload: { title: 'Unplug the toaster' },
        })
      ).statusCode,
    ).toBe(200);
    body = (await anonymous(id)).json<Detail>();
    expect(body.prerequisites.map((p) => p.title)).toEqual(['Unplug the toaster']);

    // Made private (404 for anonymous callers), public again, deleted.
    const current = (await get(id, '?pretty')).json<Detail>();
    const hidden = await t.as(author.token, {
      method: 'DELETE',
      url: api(`/guides/${id}/public?revisionid=${current.revisionid}`),
    });
    expect(hidden.statusCode).toBe(200);
    expect((await anonymous(id)).statusCode).toBe(404);
    const shown = await t.as(author.token, {
      method: 'PUT',
      url: api(`/guides/${id}/public?revisionid=${hidden.json<Detail>().revisionid}`),
    });
    expect(shown.statusCode).toBe(200);
    expect((await anonymous(id)).statusCode).toBe(200);
    const deleted = await t.as(author.token, {
      method: 'DELETE',
      url: api(`/guides/${id}?revisionid=${shown.json<Detail>().revisionid}`),
    });
    expect(deleted.statusCode).toBe(204);
    expect((await anonymous(id)).statusCode).toBe(404);
  });

  it('replaces the token only for committed changes of the tables answers are built from', async () => {
    const guide = await createGuide(t, author.user, { category: 'Toaster', public: true });
    await settled();
    await get(guide.guideid);
    const token = await versions().read('answers');
    // Reads, signed-in reads (their view history is written after them), and writes of other tables.
    await t.as(commenter.token, { method: 'GET', url: api(`/guides/${guide.guideid}`) });
    await settled();
    await t.dataSource.query('UPDATE jobs SET attempts = attempts WHERE 1 = 0');
    await t.dataSource.query("UPDATE content_versions SET token = token WHERE name = 'releases'");
    // A statement that changes no row.
    await t.dataSource.query('UPDATE guides SET title = ? WHERE guideid = ?', ['Nothing', 0]);
    // A transaction rolled back.
    await expect(
      t.app.get(TransactionService).run(async (tx) => {
        await tx.manager.query('UPDATE guides SET title = ? WHERE guideid = ?', ['Rolled back', guide.guideid]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await versions().read('answers')).toBe(token);
    expect(sqlCount(await anonymous(guide.guideid))).toBe(1);
    // A transaction committed: the token is replaced inside it.
    await t.app.get(TransactionService).run(async (tx) => {
      await tx.manager.query('UPDATE guides SET modified_date = modified_date + 1 WHERE guideid = ?', [guide.guideid]);
      await tx.manager.query('UPDATE guides SET modified_date = modified_date - 1 WHERE guideid = ?', [guide.guideid]);
    });
    expect(await versions().read('answers')).not.toBe(token);
    expect(sqlCount(await anonymous(guide.guideid))).toBeGreaterThan(1);
  });

  // MySQL only (skipped unless TEST_DB=mysql): on SQLite one write transaction runs at a time.
  (usingMysql() ? describe : describe.skip)('on MySQL (answer token slots)', () => {
    it('lets writers on two connections replace the token without waiting for each other', async () => {
      const guide = await createGuide(t, author.user, { category: 'Toaster', public: true });
      await settled();
      await get(guide.guideid);
      const token = await versions().read('answers');
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let written = () => {};
      const tokenWritten = new Promise<void>((resolve) => (written = resolve));
      // One change: its token rows are written (the first before-commit task), then it waits before its COMMIT.
      const first = t.app.get(TransactionService).run(async (tx) => {
        await tx.manager.query('UPDATE guides SET modified_date = modified_date + 1 WHERE guideid = ?', [
          guide.guideid,
        ]);
        tx.beforeCommit(async () => {
          written();
          await held;
        });
      });
      let timer: NodeJS.Timeout | undefined;
      let afterSecond: string | null;
      try {
        await tokenWritten;
        // Another, through the API on another connection, commits meanwhile (with one row per token it waited
        // for the first one's COMMIT, here for ever).
        const created = await Promise.race([
          t.as(author.token, {
            method: 'POST',
            url: api('/guides'),
            payload: { category: 'Toaster', type: 'replacement', subject: 'Heating element' },
          }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('the second writer waited for the first')), 5000);
          }),
        ]);
        expect(created.statusCode).toBe(201);
        // Each change is announced when it commits, whichever slot it wrote.
        afterSecond = await versions().read('answers');
        expect(afterSecond).not.toBe(token);
      } finally {
        clearTimeout(timer);
        release();
        await first;
      }
      expect(await versions().read('answers')).not.toBe(afterSecond);
      expect(sqlCount(await anonymous(guide.guideid))).toBeGreaterThan(1);
    });
  });

  it('names every table a detail or list is built from as a source of cached answers', async () => {
    const prerequisite = await createGuide(t, author.user, { category: 'Toaster', public: true });
    await addStep(t, author.user, prerequisite.guideid);
    const guide = await createGuide(t, author.user, {
      category: 'Toaster',
      public: true,
      prerequisites: [prerequisite.guideid],
    });
    const step = (await addStep(t, author.user, guide.guideid)).steps.at(-1)!;
    for (const [context, contextid] of [
      ['guide', guide.guideid],
      ['step', step.stepid],
    ] as const) {
      const made = await t.as(commenter.token, {
        method: 'POST',
        url: api(`/comments/${context}/${contextid}`),
        payload: { text: 'Noted, thank you.' },
      });
      expect(made.statusCode).toBe(201);
    }
    await settled();
    await versions().bump('answers');
    await versions().bump('answers-guide');
    const read = await tablesRead(t, async () => {
      expect((await get(guide.guideid)).statusCode).toBe(200);
      expect((await get(guide.guideid, '?excludePrerequisiteSteps')).statusCode).toBe(200);
      for (const query of ['?limit=200', `?guideids=${guide.guideid},${prerequisite.guideid}`])
        expect((await t.inject({ method: 'GET', url: api(`/guides${query}`) })).statusCode).toBe(200);
    });
    expect(read.size).toBeGreaterThan(3);
    const registered = answerSources();
    for (const table of GUIDE_ANSWER_SOURCES) expect(registered.has(table)).toBe(true);
    expect([...read].filter((table) => table !== 'content_versions' && !registered.has(table))).toEqual([]);
  });
});

describe('Guide detail with ANSWER_CACHE=false', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { ANSWER_CACHE: 'false' } });
    await t.app.get(ContentVersions).bump('answers');
  });
  afterAll(() => t.close());

  it('builds every anonymous answer from the database: the same bytes each time', async () => {
    const admin = await createUser(t, { privilege: 'Admin' });
    const author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, admin.user, 'Kettle');
    const guide = await createGuide(t, author.user, { category: 'Kettle', public: true });
    await addStep(t, author.user, guide.guideid);
    await t.app.get(EventBus).drain(); // reputation and the like follow the writes
    const url = api(`/guides/${guide.guideid}`);
    const reads = jest.spyOn(t.app.get(GuidesRepository), 'detailRow');
    const first = await t.inject({ method: 'GET', url });
    for (const res of await Promise.all([1, 2, 3].map(() => t.inject({ method: 'GET', url })))) {
      expect(res.body).toBe(first.body);
      expect(res.headers.etag).toBe(first.headers.etag);
      expect(sqlCount(res)).toBeGreaterThanOrEqual(1);
    }
    expect(reads).toHaveBeenCalledTimes(4);
    reads.mockRestore();
  });
});
