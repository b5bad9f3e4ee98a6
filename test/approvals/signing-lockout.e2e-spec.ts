import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobRunner } from '../../src/platform/jobs/job-runner';
import { Mailer, MemoryMailer } from '../../src/platform/mail/mailer';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';
import { API } from './approvals-test-helpers';

const PASSWORD = 'correct horse battery';
const FAILED = 'Signature authentication failed';

/**
 * The signing lockout (5 failed signatures in 15 minutes) under parallel attempts: each attempt is counted before
 * its secret is checked, so a burst never gets more than five secrets checked, on one instance or two sharing the
 * database.
 */
describe('signing lockout under parallel attempts', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  const dir = mkdtempSync(join(tmpdir(), 'signing-lockout-'));

  beforeAll(async () => {
    // On SQLite the two instances share a database file. Both have the same signing secret, as every instance of a
    // site must (a sign code's hash is keyed with it): with a secret each, a code mailed by one failed on the other.
    const shared = { SIGNING_SECRET: 'the signing secret both instances of the lockout test share' };
    const env: Record<string, string> = usingMysql()
      ? shared
      : { ...shared, DB_PATH: join(dir, 'shared.sqlite'), DB_BUSY_TIMEOUT_MS: '20000' };
    a = await createTestApp({ env });
    b = await createTestApp({ env, keepData: true });
    admin = await createUser(a, { privilege: 'Admin', password: PASSWORD });
    author = await createUser(a, { privilege: 'Author', password: PASSWORD });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let sequence = 0;
  /** A new signer and an approval request waiting for their signature alone. */
  const pendingRequest = async (): Promise<{ signer: CreatedUser; requestid: number }> => {
    sequence += 1;
    const signer = await createUser(a, { password: PASSWORD });
    const process = await a.as(admin.token, {
      method: 'POST',
      url: `${API}/approvals/process`,
      payload: { name: `Lockout ${sequence}`, stages: [{ userid: signer.user.userid }] },
    });
    expect(process.statusCode).toBe(201);
    const { wikiid } = await createWiki(a, author.user, { title: `Lockout page ${sequence}`, contents: 'Steps.' });
    const assigned = await a.as(admin.token, {
      method: 'PUT',
      url: `${API}/approvals/${wikiid}/${process.json().approval_processid}`,
      payload: {},
    });
    expect(assigned.statusCode).toBeLessThan(300);
    const released = await a.as(author.token, {
      method: 'POST',
      url: `${API}/wikis/${wikiid}/releases`,
      payload: { type: 'major' },
    });
    expect(released.statusCode).toBe(201);
    return { signer, requestid: released.json().approval_requestid };
  };

  /** Sends every secret at once, spread over the instances; answers the statuses and how many secrets were checked. */
  const burst = async (apps: TestApp[], signer: CreatedUser, requestid: number, secrets: object[]) => {
    const answers = await Promise.all(
      secrets.map((secret, i) =>
        apps[i % apps.length].as(signer.token, {
          method: 'POST',
          url: `${API}/approvals/request/sign/${requestid}`,
          payload: { decision: 'approve', ...secret },
        }),
      ),
    );
    const failed = answers.filter((r) => r.statusCode === 403 && r.json().message === FAILED).length;
    const signed = answers.filter((r) => r.statusCode === 200).length;
    const refused = answers.filter((r) => r.statusCode === 429);
    for (const r of refused) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    // Once one signs, the request is no longer pending: later attempts answer 409 before any secret is checked.
    const conflicts = answers.filter((r) => r.statusCode === 409).length;
    expect(failed + signed + refused.length + conflicts).toBe(secrets.length);
    return { failed, signed, refused: refused.length, checked: failed + signed };
  };

  const wrong = (n: number) => Array.from({ length: n }, (_, i) => ({ password: `wrong password ${i}` }));

  const failedAttempts = async (userid: number) =>
    Number(
      (
        await a.dataSource.query<{ n: number }[]>(
          "SELECT COUNT(*) AS n FROM signature_attempts WHERE userid = ? AND state = 'failed'",
          [userid],
        )
      )[0].n,
    );

  describe.each([
    ['one instance', () => [a]],
    ['two instances on one database', () => [a, b]],
  ])('%s', (_name, apps) => {
    it.each([20, 50])('%i wrong passwords at once: exactly 5 checked, then the right one is refused', async (n) => {
      const { signer, requestid } = await pendingRequest();
      expect(await burst(apps(), signer, requestid, wrong(n))).toEqual({
        failed: 5,
        signed: 0,
        refused: n - 5,
        checked: 5,
      });
      expect(await failedAttempts(signer.user.userid)).toBe(5);
      // Locked: the right password is refused too, alone or inside another burst.
      expect((await burst(apps(), signer, requestid, [{ password: PASSWORD }])).refused).toBe(1);
      expect(await burst(apps(), signer, requestid, [...wrong(n - 1), { password: PASSWORD }])).toEqual({
        failed: 0,
        signed: 0,
        refused: n,
        checked: 0,
      });
    });

    it.each([20, 50])('%i wrong passwords and the right one at once: at most 5 checked', async (n) => {
      const { signer, requestid } = await pendingRequest();
      const secrets = wrong(n - 1);
      secrets.splice(n >> 1, 0, { password: PASSWORD });
      const result = await burst(apps(), signer, requestid, secrets);
      expect(result.checked).toBeLessThanOrEqual(5);
      expect(result.signed).toBeLessThanOrEqual(1);
      if (!result.signed) expect(await failedAttempts(signer.user.userid)).toBe(5);
    });

    it.each([20, 50])('one sign code sent %i times at once: at most 5 checked, one signs', async (n) => {
      const { signer, requestid } = await pendingRequest();
      const mailer = a.app.get<Mailer, MemoryMailer>(Mailer);
      mailer.clear();
      const sent = await a.as(signer.token, {
        method: 'POST',
        url: `${API}/approvals/request/sign/${requestid}/token`,
        payload: {},
      });
      expect(sent.statusCode).toBe(202);
      const codeMail = () => mailer.to(signer.user.email).find((m) => m.subject.startsWith('Your sign code'));
      for (let i = 0; i < 3 && !codeMail(); i += 1) {
        await a.app.get(JobRunner).drain();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const code = /is (\d{6})/.exec(codeMail()!.text)![1];
      const result = await burst(
        apps(),
        signer,
        requestid,
        Array.from({ length: n }, () => ({ sign_token: code })),
      );
      expect(result.checked).toBeLessThanOrEqual(5);
      expect(result.signed).toBe(1);
    });
  });
});
