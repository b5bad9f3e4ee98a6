import { JobRunner } from '../../src/platform/jobs/job-runner';
import { Scheduler } from '../../src/platform/jobs/scheduler';
import { FakeClock } from '../../src/platform/clock/clock';
import { Mailer, type MemoryMailer } from '../../src/platform/mail/mailer';
import { REVIEW_TICK, ReviewSchedulerService } from '../../src/modules/periodic-review/review-scheduler.service';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, eventRows, utc } from './periodic-review-kit';

const DAY = 86_400;

/** The hourly task: one mail and one event per state change, however often it runs. */
describe('Periodic review reminders (scheduler tick)', () => {
  let t: TestApp;
  const clock = new FakeClock(utc(2027, 1, 31, 10, 15, 7));
  let mailer: MemoryMailer;
  let author: CreatedUser;
  let reviewer: CreatedUser;

  const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
  const tick = async () => {
    await t.app.get(Scheduler).run(REVIEW_TICK);
    await t.app.get(JobRunner).drain();
  };

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    mailer = t.app.get<MemoryMailer>(Mailer);
    author = await createUser(t, { privilege: 'Author', password: 'author password 1' });
    reviewer = await createUser(t, { password: 'reviewer password 1' });
  });
  afterAll(() => t.close());

  it('mails the reviewer once when the window opens and once when overdue; a review resets the state', async () => {
    const prsid = (
      await call(author.token, 'POST', '/periodic_review', {
        name: 'Monthly',
        recurrence: { type: 'interval', days: 30 },
        completion_window_days: 7,
        default_reviewer_userid: reviewer.user.userid,
      })
    ).json().prsid;
    const wiki = await createWiki(t, author.user, { contents: 'Body' });
    const doc = (
      await call(author.token, 'POST', '/periodic_review/documents', {
        prsid,
        documents: [{ doctype: 'WIKI', docid: wiki.wikiid }],
      })
    ).json().documents[0];
    mailer.clear();
    await tick();
    expect(mailer.messages).toEqual([]);
    clock.set((doc.next_due_date - 7 * DAY - 1) * 1000);
    await tick();
    expect(mailer.messages).toEqual([]);
    clock.set((doc.next_due_date - 7 * DAY) * 1000);
    await tick();
    await tick();
    await Promise.all([tick(), tick()]);
    expect(mailer.to(reviewer.user.email)).toEqual([expect.objectContaining({ subject: `Review due: ${wiki.title}` })]);
    expect(mailer.messages).toHaveLength(1);
    clock.set(doc.next_due_date * 1000);
    await tick();
    await tick();
    expect(mailer.messages.map((m) => m.subject)).toEqual([
      `Review due: ${wiki.title}`,
      `Review overdue: ${wiki.title}`,
    ]);
    expect((await eventRows(t, 'periodic_review_document', doc.prdid)).map((e) => e.name)).toEqual([
      'periodic_review.document_added',
      'periodic_review.due',
      'periodic_review.overdue',
    ]);
    const due = (await eventRows(t, 'periodic_review_document', doc.prdid))[1];
    expect(due.payload).toMatchObject({ prdid: doc.prdid, state: 'open' });
    const reviewed = await call(reviewer.token, 'POST', '/periodic_review/review', {
      prdid: doc.prdid,
      outcome: 'no_changes',
      password: 'reviewer password 1',
    });
    expect(reviewed.statusCode).toBe(201);
    await tick();
    expect(mailer.messages).toHaveLength(2);
    clock.set((doc.next_due_date + 30 * DAY - 7 * DAY + 1) * 1000);
    // Next due = review time (the old due date) + 30 days: its window is open again.
    await tick();
    expect(mailer.messages.map((m) => m.subject)).toEqual([
      `Review due: ${wiki.title}`,
      `Review overdue: ${wiki.title}`,
      `Review due: ${wiki.title}`,
    ]);
  });

  it('two runs at once bypassing the lock still mail once (conditional update)', async () => {
    clock.set(utc(2027, 6, 1));
    const prsid = (
      await call(author.token, 'POST', '/periodic_review', {
        name: 'Race',
        recurrence: { type: 'interval', days: 10 },
        completion_window_days: 5,
        default_reviewer_userid: reviewer.user.userid,
      })
    ).json().prsid;
    const wiki = await createWiki(t, author.user, { contents: 'Race' });
    await call(author.token, 'POST', '/periodic_review/documents', {
      prsid,
      documents: [{ doctype: 'WIKI', docid: wiki.wikiid }],
    });
    mailer.clear();
    clock.advance(6 * DAY * 1000);
    const service = t.app.get(ReviewSchedulerService);
    await Promise.all([service.tick(), service.tick()]);
    await t.app.get(JobRunner).drain();
    expect(mailer.messages.filter((m) => m.subject === `Review due: ${wiki.title}`)).toHaveLength(1);
  });
});
