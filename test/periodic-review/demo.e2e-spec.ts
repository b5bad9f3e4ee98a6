import { DEMO_LOGIN, DemoSeedRegistry, type DemoLogin } from '../../src/database/seed/demo-seed.registry';
import { AuthTokenService } from '../../src/modules/auth/auth-token.service';
import { UserEntity } from '../../src/modules/users/entities/user.entity';
import { FakeClock } from '../../src/platform/clock/clock';
import { settle } from '../utils/events';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, utc } from './periodic-review-kit';

/** The issue's walk-through on the demo content: due, reviewed with a password, change requested, released, resolved. */
describe('periodic review demo content', () => {
  let t: TestApp;
  const clock = new FakeClock(utc(2027, 3, 10, 9, 0, 0));
  beforeAll(async () => {
    t = await createTestApp({ env: { SEED_DEMO: 'true' }, platform: { clock } });
  });
  afterAll(() => t.close());

  const tokenOf = async (email: string) => {
    const user = await t.dataSource.getRepository(UserEntity).findOneByOrFail({ email });
    return { user, token: await t.app.get(AuthTokenService).issue(user.userid) };
  };
  const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });

  it('the Moderator has the Getting Started page due, requests a change; a release by the Author resolves it', async () => {
    const moderator = await tokenOf('moderator@demo.example');
    const author = await tokenOf('author@demo.example');
    const admin = await tokenOf('admin@demo.example');
    const password = t.app.get(DemoSeedRegistry).get<DemoLogin>(DEMO_LOGIN)?.password;
    expect(password).toEqual(expect.any(String));

    const due = await call(moderator.token, 'GET', `/periodic_review/documents/${moderator.user.userid}?state=open`);
    expect(due.statusCode).toBe(200);
    const [doc, ...others] = due.json<{ prdid: number; doctype: string; docid: number; next_due_date: number }[]>();
    expect(others).toEqual([]);
    expect(doc).toMatchObject({ doctype: 'WIKI', next_due_date: utc(2027, 3, 17) / 1000 });
    const schedules = await call(admin.token, 'GET', '/periodic_review');
    expect(schedules.json()).toEqual([expect.objectContaining({ name: 'Demo annual review' })]);

    const reviewed = await call(moderator.token, 'POST', '/periodic_review/review', {
      prdid: doc.prdid,
      outcome: 'changes_requested',
      change_request: { description: 'Link the new tool pages.', assignee_userid: author.user.userid },
      password,
    });
    expect(reviewed.statusCode).toBe(201);
    const requestid = reviewed.json<{ change_request: { requestid: number } }>().change_request.requestid;

    clock.advance(3600_000);
    const release = await call(author.token, 'POST', `/wikis/${doc.docid}/releases`, { type: 'major' });
    expect(release.statusCode).toBe(201);
    await settle(t);
    const requests = await call(author.token, 'GET', `/periodic_review/requests/${author.user.userid}`);
    expect(requests.json()).toEqual([
      expect.objectContaining({ requestid, status: 'resolved', resolved_by_releaseid: release.json().releaseid }),
    ]);
  });
});
