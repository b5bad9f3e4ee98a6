import { DataSource } from 'typeorm';
import { JobRunner } from '../../src/platform/jobs/job-runner';
import { FakeClock } from '../../src/platform/clock/clock';
import { Mailer, type MemoryMailer } from '../../src/platform/mail/mailer';
import { ReviewSchedulerService, TICK_BATCH } from '../../src/modules/periodic-review/review-scheduler.service';
import { createUser } from '../factories/user.factory';
import { bulkInsertCategories } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, utc } from './periodic-review-kit';

const DAY = 86_400;
const DOCUMENTS = 2 * TICK_BATCH + 50;

/** The hourly task over more documents than one batch holds. */
describe('Periodic review tick over several batches', () => {
  let t: TestApp;
  const clock = new FakeClock(utc(2027, 3, 1, 9));

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
  });
  afterAll(() => t.close());

  it('changes every document once, batch after batch, and lets other work run between batches', async () => {
    const author = await createUser(t, { privilege: 'Author' });
    const reviewer = await createUser(t);
    const prsid = (
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
    mailer.clear();
    clock.advance(30 * DAY * 1000);

    // On SQLite every statement completes synchronously: unless the task gives the event loop a turn between
    // batches, a callback queued now runs only after the whole task (and so would every HTTP request).
    const service = t.app.get(ReviewSchedulerService);
    const tick = service.tick().then(() => 'task finished');
    const loopTurn = new Promise((resolve) => setImmediate(() => resolve('event loop turned')));
    expect(await Promise.race([tick, loopTurn])).toBe('event loop turned');
    await tick;

    await t.app.get(JobRunner).drain();
    expect(mailer.to(reviewer.user.email)).toHaveLength(DOCUMENTS);
    expect(new Set(mailer.messages.map((m) => m.subject)).size).toBe(DOCUMENTS);
    expect(mailer.messages.every((m) => m.subject.startsWith('Review overdue: '))).toBe(true);
    const [counted] = await t.app
      .get(DataSource)
      .query<{ n: number | string }[]>(
        "SELECT COUNT(*) AS n FROM periodic_review_documents WHERE prsid = ? AND notified_state = 'overdue'",
        [prsid],
      );
    expect(Number(counted.n)).toBe(DOCUMENTS);

    mailer.clear();
    await service.tick();
    await t.app.get(JobRunner).drain();
    expect(mailer.messages).toEqual([]);
  });
});
