import type { AuthenticatedUser } from '../../src/common/auth/authenticated-user';
import { ApiException } from '../../src/common/http/api-errors';
import { TransactionService } from '../../src/database/transaction.service';
import { AuditReader } from '../../src/platform/audit/audit-reader.service';
import { FakeClock } from '../../src/platform/clock/clock';
import { JobRunner } from '../../src/platform/jobs/job-runner';
import { Mailer, MemoryMailer } from '../../src/platform/mail/mailer';
import { SignatureService, toSignatureView } from '../../src/platform/signatures/signature.service';
import { UsersRepository } from '../../src/modules/users/users.repository';
import { createUser } from '../factories/user.factory';
import { gate, pause } from '../utils/hold';
import { createTestApp, type TestApp } from '../utils/test-app';

const PASSWORD = 'correct horse battery';

describe('electronic signatures: re-entry, lockout across the database, one-time codes', () => {
  let t: TestApp;
  let signatures: SignatureService;
  let mailer: MemoryMailer;
  const clock = new FakeClock(Date.UTC(2026, 5, 1, 8));
  const binding = { subjectType: 'approval_request', subjectId: 7, stage: 1 };

  const signer = async (): Promise<AuthenticatedUser & { email: string }> => {
    const { user } = await createUser(t, { password: PASSWORD });
    return { userid: user.userid, username: user.username, privileges: [], tokenid: 0, email: user.email };
  };
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      (): { status: number; message: string; headers: Record<string, string> } => ({
        status: 200,
        message: '',
        headers: {},
      }),
      (error: ApiException) => ({
        status: error.getStatus(),
        message: (error.getResponse() as { message: string }).message,
        headers: error.headers ?? {},
      }),
    );
  const auditActions = async (userid: number) =>
    (
      await t.app
        .get(AuditReader)
        .list({ entity_type: 'user', entity_id: String(userid), order: 'ASC', offset: 0, limit: 200 })
    ).map((row) => row.action);

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    signatures = t.app.get(SignatureService);
    mailer = t.app.get<Mailer, MemoryMailer>(Mailer);
  });
  afterAll(() => t.close());

  it('a correct password gives a proof; record() writes an immutable signature with its audit row', async () => {
    const me = await signer();
    const proof = await signatures.verify(me, { password: PASSWORD }, binding);
    expect(proof).toEqual({ userid: me.userid, printedName: me.username, method: 'password', earlierFailures: [] });
    const row = await t.app.get(TransactionService).run(() =>
      signatures.record(proof, {
        type: 'approval_request',
        id: 7,
        meaning: 'approval',
        note: 'ok',
        recordHash: 'a'.repeat(64),
      }),
    );
    expect(toSignatureView(row)).toEqual({
      userid: me.userid,
      printed_name: me.username,
      signed_at: clock.nowSeconds(),
      meaning: 'approval',
      note: 'ok',
    });
    expect((await signatures.forSubject('approval_request', 7)).map((s) => s.recordHash)).toEqual(['a'.repeat(64)]);
  });

  it('verify refuses to run inside a transaction (a failure must survive the rollback)', async () => {
    const me = await signer();
    await expect(
      t.app.get(TransactionService).run(() => signatures.verify(me, { password: PASSWORD }, binding)),
    ).rejects.toThrow(/outside a transaction/);
  });

  it('a wrong secret is 403 "Signature authentication failed" and audited; the 5th locks signing for 15 minutes', async () => {
    const me = await signer();
    for (let i = 1; i <= 5; i += 1) {
      expect(await failure(signatures.verify(me, { password: 'wrong' }, binding))).toEqual({
        status: 403,
        message: 'Signature authentication failed',
        headers: {},
      });
    }
    const locked = await failure(signatures.verify(me, { password: PASSWORD }, binding));
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBe(String(15 * 60));
    expect(await auditActions(me.userid)).toEqual([
      ...Array(5).fill('signature.failed'),
      'signature.lockout',
      'signature.lockout',
    ]);
    clock.advance(15 * 60_000 - 1000);
    expect((await failure(signatures.verify(me, { password: PASSWORD }, binding))).headers['retry-after']).toBe('1');
    clock.advance(1000);
    await expect(signatures.verify(me, { password: PASSWORD }, binding)).resolves.toMatchObject({ userid: me.userid });
  });

  it("a signature clears the signer's failures: four more wrong secrets then do not lock", async () => {
    const me = await signer();
    const failures = async () =>
      Number(
        (
          await t.dataSource.query<{ n: number }[]>(
            "SELECT COUNT(*) AS n FROM signature_attempts WHERE userid = ? AND state = 'failed'",
            [me.userid],
          )
        )[0].n,
      );
    for (let i = 0; i < 4; i += 1) await failure(signatures.verify(me, { password: 'wrong' }, binding));
    expect(await failures()).toBe(4);
    const proof = await signatures.verify(me, { password: PASSWORD }, binding);
    expect(proof.earlierFailures).toHaveLength(4);
    await t.app
      .get(TransactionService)
      .run(() =>
        signatures.record(proof, { type: 'approval_request', id: 8, meaning: 'approval', recordHash: 'b'.repeat(64) }),
      );
    expect(await failures()).toBe(0);
    // (A success counts a few seconds more, against bursts: signing-attempts.ts.)
    clock.advance(10_000);
    for (let i = 0; i < 4; i += 1) await failure(signatures.verify(me, { password: 'wrong' }, binding));
    const again = await signatures.verify(me, { password: PASSWORD }, binding);
    expect(again.earlierFailures).toHaveLength(4);
  });

  it('a signature keeps the failures that ran beside it, and its own place until they end', async () => {
    const me = await signer();
    const users = t.app.get(UsersRepository);
    const held = gate();
    let holding = false;
    // The second attempt below is held between being counted and having its secret checked.
    signatures.useAccounts({
      credentials: async (userid) => {
        const user = await users.findById(userid);
        if (holding && userid === me.userid) {
          holding = false;
          await held.wait;
        }
        return user ? { printedName: user.username, passwordHash: user.passwordHash, email: user.email } : null;
      },
    });
    const states = async () =>
      (
        await t.dataSource.query<{ state: string }[]>(
          'SELECT state FROM signature_attempts WHERE userid = ? ORDER BY attemptid',
          [me.userid],
        )
      ).map((row) => row.state);
    for (let i = 0; i < 2; i += 1) await failure(signatures.verify(me, { password: 'wrong' }, binding));
    holding = true;
    const beside = failure(signatures.verify(me, { password: 'wrong' }, binding));
    while (!(await states()).includes('pending')) await pause(5);
    const proof = await signatures.verify(me, { password: PASSWORD }, binding);
    expect(proof.earlierFailures).toHaveLength(2);
    // The success keeps its place while the held attempt runs: with two more counted, a sixth is refused.
    expect(await states()).toEqual(['failed', 'failed', 'pending', 'passed']);
    await failure(signatures.verify(me, { password: 'wrong' }, binding));
    expect((await failure(signatures.verify(me, { password: PASSWORD }, binding))).headers['retry-after']).toBe('1');
    held.open();
    expect((await beside).status).toBe(403);
    expect(await states()).toEqual(['failed', 'failed', 'failed', 'passed', 'failed']);
    await t.app
      .get(TransactionService)
      .run(() =>
        signatures.record(proof, { type: 'approval_request', id: 9, meaning: 'approval', recordHash: 'c'.repeat(64) }),
      );
    // Only the failures that had ended before the signature began are cleared; those beside it stay.
    expect(await states()).toEqual(['failed', 'passed', 'failed']);
    // The success still counts for a few seconds: two more attempts, then a refusal (not a lockout).
    for (let i = 0; i < 2; i += 1) await failure(signatures.verify(me, { password: 'wrong' }, binding));
    const refused = await failure(signatures.verify(me, { password: PASSWORD }, binding));
    expect(refused).toMatchObject({ status: 429, headers: { 'retry-after': '10' } });
    clock.advance(10_000);
    expect((await failure(signatures.verify(me, { password: 'wrong' }, binding))).status).toBe(403);
    expect((await failure(signatures.verify(me, { password: PASSWORD }, binding))).status).toBe(429);
    signatures.useAccounts({
      credentials: async (userid) => {
        const user = await users.findById(userid);
        return user ? { printedName: user.username, passwordHash: user.passwordHash, email: user.email } : null;
      },
    });
  });

  it('failures older than 15 minutes do not count', async () => {
    const me = await signer();
    for (let i = 0; i < 4; i += 1) await failure(signatures.verify(me, { password: 'wrong' }, binding));
    clock.advance(15 * 60_000 + 1);
    expect((await failure(signatures.verify(me, { password: 'wrong' }, binding))).status).toBe(403);
    await expect(signatures.verify(me, { password: PASSWORD }, binding)).resolves.toBeDefined();
  });

  it('a one-time code: mailed after commit, 6 digits, bound, single use, 10 minutes, at most 3 per 15 minutes', async () => {
    const me = await signer();
    mailer.clear();
    const issued = await signatures.issueCode(me, binding, 'approval request 7');
    expect(issued).toEqual({ expires_date: clock.nowSeconds() + 600 });
    expect(mailer.to(me.email)).toEqual([]);
    await t.app.get(JobRunner).drain();
    const [mail] = mailer.to(me.email);
    const code = /(\d{6})/.exec(mail.subject)![1];
    expect(mail.text).toContain(code);

    expect((await failure(signatures.verify(me, { sign_token: code }, { ...binding, stage: 2 }))).status).toBe(403);
    await expect(signatures.verify(me, { sign_token: code }, binding)).resolves.toMatchObject({ method: 'sign_token' });
    expect((await failure(signatures.verify(me, { sign_token: code }, binding))).status).toBe(403);

    await signatures.issueCode(me, binding, 'approval request 7');
    clock.advance(10 * 60_000 + 1);
    await t.app.get(JobRunner).drain();
    const late = /(\d{6})/.exec(mailer.to(me.email)[1].subject)![1];
    expect((await failure(signatures.verify(me, { sign_token: late }, binding))).status).toBe(403);

    await signatures.issueCode(me, binding, 'x');
    const fourth = await failure(signatures.issueCode(me, binding, 'x'));
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('a newer code voids the older one', async () => {
    const me = await signer();
    mailer.clear();
    await signatures.issueCode(me, binding, 'x');
    await signatures.issueCode(me, binding, 'x');
    await t.app.get(JobRunner).drain();
    const [first, second] = mailer.to(me.email).map((m) => /(\d{6})/.exec(m.subject)![1]);
    if (first !== second)
      expect((await failure(signatures.verify(me, { sign_token: first }, binding))).status).toBe(403);
    await expect(signatures.verify(me, { sign_token: second }, binding)).resolves.toBeDefined();
  });
});
