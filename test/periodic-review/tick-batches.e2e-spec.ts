import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { JobRunner } from '../../src/platform/jobs/job-runner';
import { FakeClock } from '../../src/platform/clock/clock';
import { Mailer, type MemoryMailer } from '../../src/platform/mail/mailer';
import { ReviewSchedulerService, TICK_BATCH } from '../../src/modules/periodic-review/review-scheduler.service';
import { createUser } from '../factories/user.factory';
import { bulkInsertCategories } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';
import { API, utc } from './periodic-review-kit';

const DAY = 86_400;
const DOCUMENTS = 2 * TICK_BATCH + 50;

/** The hourly task over more documents than one batch holds, on one instance and on two at once. */
describe('Periodic review tick over several batches', () => {
  let t: TestApp;
  let other: TestApp;
  let dir: string | undefined;
  let prsid: number;
  let reviewerEmail: string;
  const clock = new FakeClock(utc(2027, 3, 1, 9));
  const mailers = () => [t, other].map((app) => app.app.get<MemoryMailer>(Mailer));
  const drainBoth = () => Promise.all([t, other].map((app) => app.app.get(JobRunner).drain()));
  const countIn = async (state: string) => {
    const [counted] = await t.app
      .get(DataSource)
      .query<{ n: number | string }[]>(
        'SELECT COUNT(*) AS n FROM periodic_review_documents WHERE prsid = ? AND notified_state = ?',
        [prsid, state],
      );
    return Number(counted.n);
  };

  beforeAll(async () => {
    // Two instances on one database: a shared SQLite file, or the run's MySQL database.
    dir = usingMysql() ? undefined : mkdtempSync(join(tmpdir(), 'rgcs-tick-'));
    const env = dir ? { DB_PATH: join(dir, 'shared.sqlite'), DB_BUSY_TIMEOUT_MS: '20000' } : undefined;
    t = await createTestApp({ platform: { clock }, env });
    other = await createTestApp({ platform: { clock }, env, keepData: true });
  });
  afterAll(async () => {
    await t?.close();
    await other?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('changes every document once, batch after batch, and lets other work run between batches', async () => {
    const author = await createUser(t, { privilege: 'Author' });
    const reviewer = await createUser(t);
    reviewerEmail = reviewer.user.email;
    prsid = (
      await t.as(author.token, {
        method: 'POST',
        url: `${API}/periodic_review`,
        payload: {
          name: 'Batches',
          recurrence: { type: 'interval', days: 30 },
          completion_window_days: 7,
          default_reviewer_userid: reviewer.user.userid,
        },
      })
    ).json().prsid;
    const wikiids = await bulkInsertCategories(t, author.user.userid, DOCUMENTS, 50);
    for (let i = 0; i < wikiids.length; i += 100) {
      const added = await t.as(author.token, {
        method: 'POST',
        url: `${API}/periodic_review/documents`,
        payload: { prsid, documents: wikiids.slice(i, i + 100).map((docid) => ({ doctype: 'WIKI', docid })) },
      });
      expect(added.statusCode).toBe(200);
    }
    const mailer = t.app.get<MemoryMailer>(Mailer);
    mailers().forEach((m) => m.clear());
    // The review window (7 days before the due date, 30 days after adding) opens.
    clock.advance(23 * DAY * 1000);

    // On SQLite every statement completes synchronously: unless the task gives the event loop a turn between
    // batches, a callback queued now runs only after the whole task (and so would every HTTP request).
    const service = t.app.get(ReviewSchedulerService);
    const tick = service.tick().then(() => 'task finished');
    const loopTurn = new Promise((resolve) => setImmediate(() => resolve('event loop turned')));
    expect(await Promise.race([tick, loopTurn])).toBe('event loop turned');
    await tick;

    await drainBoth();
    const sent = mailers().flatMap((m) => m.messages);
    expect(sent.filter((m) => m.to === reviewer.user.email)).toHaveLength(DOCUMENTS);
    expect(new Set(sent.map((m) => m.subject)).size).toBe(DOCUMENTS);
    expect(sent.every((m) => m.subject.startsWith('Review due: '))).toBe(true);
    expect(await countIn('open')).toBe(DOCUMENTS);

    mailers().forEach((m) => m.clear());
    await service.tick();
    await drainBoth();
    expect(mailer.messages).toEqual([]);
  });

  it('two instances running the task at once (the scheduler lock bypassed) mail each change once', async () => {
    mailers().forEach((m) => m.clear());
    clock.advance(7 * DAY * 1000);
    await Promise.all([t, other].map((app) => app.app.get(ReviewSchedulerService).tick()));
    await drainBoth();
    const sent = mailers().flatMap((m) => m.messages);
    expect(sent.filter((m) => m.to === reviewerEmail)).toHaveLength(DOCUMENTS);
    expect(new Set(sent.map((m) => m.subject)).size).toBe(DOCUMENTS);
    expect(sent.every((m) => m.subject.startsWith('Review overdue: '))).toBe(true);
    expect(await countIn('overdue')).toBe(DOCUMENTS);
  });
});
