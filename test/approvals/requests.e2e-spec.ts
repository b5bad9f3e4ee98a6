import { createHash } from 'node:crypto';
import { canonicalJson } from '../../src/common/security/canonical-json';
import { AuditVerifier } from '../../src/platform/audit/audit-verifier';
import { FakeClock } from '../../src/platform/clock/clock';
import { DocumentRegistry } from '../../src/platform/documents/document-registry';
import { ReleaseDirectory } from '../../src/platform/documents/release-directory';
import { JobRunner } from '../../src/platform/jobs/job-runner';
import { Mailer, MemoryMailer } from '../../src/platform/mail/mailer';
import { UsersService } from '../../src/modules/users/users.service';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createWiki } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { API, auditActions, createTeam, outbox } from './approvals-test-helpers';

const NOW = Date.UTC(2026, 5, 1, 8);
const PASSWORD = 'correct horse battery';

interface WikiView {
  revisionid: number;
  contents_raw: string;
}

interface RequestBody {
  approval_requestid: number;
  status: string;
  current_stage: number | null;
  eligible: boolean;
  release: { releaseid: number; status: string; version: string; revisionid: number };
  stages: { status: string; signatures: { userid: number; decision: string }[] }[];
}

describe('approval requests (docs/enterprise/approvals.md, A8-A11) through real releases', () => {
  let t: TestApp;
  let mailer: MemoryMailer;
  const clock = new FakeClock(NOW);
  let admin: CreatedUser;
  let author: CreatedUser;
  let first: CreatedUser;
  let second: CreatedUser;
  let third: CreatedUser;
  let outsider: CreatedUser;
  let teamid: number;
  let processid: number;

  const light = async (userid: number) => (await t.app.get(UsersService).lightUsers([userid])).get(userid);
  /** Runs the mail jobs, including one a post-commit poke may have claimed in the background. */
  const sendMail = async () => {
    for (let i = 0; i < 3; i += 1) {
      await t.app.get(JobRunner).drain();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const get = (token: string, id: number) => t.as(token, { method: 'GET', url: `${API}/approvals/request/${id}` });
  const sign = (token: string, id: number, payload: object) =>
    t.as(token, { method: 'POST', url: `${API}/approvals/request/sign/${id}`, payload });
  const newWiki = async (title: string) =>
    (await createWiki(t, author.user, { title, contents: `Steps of ${title}.` })).wikiid;
  const assign = (wikiid: number, pid = processid) =>
    t.as(admin.token, { method: 'PUT', url: `${API}/approvals/${wikiid}/${pid}`, payload: {} });
  const release = async (wikiid: number) => {
    const res = await t.as(author.token, {
      method: 'POST',
      url: `${API}/wikis/${wikiid}/releases`,
      payload: { type: 'major' },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ releaseid: number; status: string; approval_requestid: number }>();
  };
  const newProcess = async (name: string, stages: object[]) => {
    const res = await t.as(admin.token, { method: 'POST', url: `${API}/approvals/process`, payload: { name, stages } });
    expect(res.statusCode).toBe(201);
    return res.json<{ approval_processid: number; approval_process_revisionid: number }>();
  };

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    mailer = t.app.get<Mailer, MemoryMailer>(Mailer);
    admin = await createUser(t, { privilege: 'Admin', password: PASSWORD });
    author = await createUser(t, { privilege: 'Author', password: PASSWORD });
    first = await createUser(t, { password: PASSWORD });
    second = await createUser(t, { password: PASSWORD });
    third = await createUser(t, { password: PASSWORD });
    outsider = await createUser(t, { password: PASSWORD });
    teamid = await createTeam(t, 'Quality', [second.user.userid, third.user.userid, author.user.userid]);
    processid = (await newProcess('Two stages', [{ userid: first.user.userid }, { teamid, required_signatures: 2 }]))
      .approval_processid;
  });
  afterAll(() => t.close());

  describe('a WIKI page through two stages: the Admin assigns, an Author releases, signers approve with passwords', () => {
    let wikiid: number;
    let requestid: number;
    let releaseid: number;

    beforeAll(async () => {
      wikiid = await newWiki('Torque the pump');
      await assign(wikiid);
      mailer.clear();
      const created = await release(wikiid);
      requestid = created.approval_requestid;
      releaseid = created.releaseid;
      await sendMail();
    });

    it('opens the request with stage 1 pending, the rest waiting; stage-1 signer mailed; submitted event', async () => {
      const res = await get(first.token, requestid);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.release.status).toBe('pending');
      const requester = await light(author.user.userid);
      expect(body).toEqual({
        approval_requestid: requestid,
        status: 'pending',
        releaseid,
        release: {
          id: releaseid,
          releaseid,
          wikiid,
          langid: 'en',
          revisionid: body.release.revisionid,
          user: requester,
          status: 'pending',
          title: 'Release v1.0',
          init_date: NOW / 1000,
          release_date: null,
          notes: '',
          type: 'major',
          doctype: 'WIKI',
          docid: wikiid,
          version: '1.0',
          approval_requestid: requestid,
          periodic_review_confirmed: false,
        },
        doctype: 'WIKI',
        docid: wikiid,
        document_title: 'Torque the pump',
        requested_by: requester,
        init_date: NOW / 1000,
        end_date: null,
        process: {
          approval_processid: processid,
          approval_process_revisionid: body.process.approval_process_revisionid,
          name: 'Two stages',
        },
        current_stage: 1,
        stage_count: 2,
        stages: [
          {
            orderby: 1,
            status: 'pending',
            init_date: NOW / 1000,
            end_date: null,
            user: await light(first.user.userid),
            team: null,
            required_signatures: 1,
            signatures: [],
          },
          {
            orderby: 2,
            status: 'waiting',
            init_date: null,
            end_date: null,
            user: null,
            team: { teamid, name: 'Quality' },
            required_signatures: 2,
            signatures: [],
          },
        ],
        eligible: true,
      });
      expect(mailer.to(first.user.email).map((m) => m.subject)).toEqual(['Approval requested: Torque the pump']);
      expect(mailer.to(second.user.email)).toEqual([]);
      const events = await outbox(t, 'approval_request', requestid);
      expect(events.map((e) => e.name)).toEqual(['approval_request.submitted']);
      expect(events[0].payload).toEqual({ ...body, eligible: false });
      expect(await auditActions(t, 'approval_request', requestid)).toEqual(['approval_request.create']);
    });

    it('eligible per caller: the requester (also a team member) never, team members only once their stage opens', async () => {
      expect((await get(author.token, requestid)).json().eligible).toBe(false);
      expect((await get(second.token, requestid)).json().eligible).toBe(false);
      expect((await get(admin.token, requestid)).json().eligible).toBe(false);
    });

    it('A9: 401 without a token, 404 for unknown ids and for callers not involved', async () => {
      expect((await t.inject({ method: 'GET', url: `${API}/approvals/request/${requestid}` })).statusCode).toBe(401);
      expect((await get(outsider.token, requestid)).json()).toEqual({
        error: true,
        message: 'Approval request not found',
      });
      expect((await get(admin.token, 999999)).statusCode).toBe(404);
      expect((await get(admin.token, 0)).statusCode).toBe(404);
    });

    it('A10 refuses in order: 401, 422 shape, 404, 403 not eligible (requester, later stage), 403 wrong password', async () => {
      expect(
        (await t.inject({ method: 'POST', url: `${API}/approvals/request/sign/${requestid}`, payload: {} })).statusCode,
      ).toBe(401);
      const none = await sign(first.token, requestid, { decision: 'approve' });
      expect(none.json()).toEqual({
        error: true,
        message: 'Send exactly one of password or sign_token',
        errors: [{ message: 'Send exactly one of password or sign_token', field: 'password' }],
      });
      expect(
        (await sign(first.token, requestid, { decision: 'approve', password: PASSWORD, sign_token: '123456' }))
          .statusCode,
      ).toBe(422);
      const noNote = await sign(first.token, requestid, { decision: 'reject', password: PASSWORD });
      expect(noNote.json()).toEqual({
        error: true,
        message: 'A rejection needs a note',
        errors: [{ message: 'A rejection needs a note', field: 'note' }],
      });
      expect((await sign(first.token, requestid, { decision: 'maybe', password: PASSWORD })).statusCode).toBe(422);
      expect(
        (await sign(first.token, requestid, { decision: 'reject', password: PASSWORD, note: 'x'.repeat(2001) }))
          .statusCode,
      ).toBe(422);
      expect((await sign(outsider.token, requestid, { decision: 'approve', password: PASSWORD })).statusCode).toBe(404);
      for (const who of [author, second]) {
        const res = await sign(who.token, requestid, { decision: 'approve', password: PASSWORD });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: true, message: 'Not eligible to sign' });
      }
      const wrong = await sign(first.token, requestid, { decision: 'approve', password: 'nope' });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toEqual({ error: true, message: 'Signature authentication failed' });
      expect(await auditActions(t, 'user', first.user.userid)).toEqual(['signature.failed']);
      expect(await outbox(t, 'user', first.user.userid)).toEqual([
        {
          name: 'signature.failed',
          payload: {
            userid: first.user.userid,
            method: 'password',
            subject_type: 'approval_request',
            subject_id: String(requestid),
            failures: 1,
            locked_until: null,
          },
        },
      ]);
      expect((await get(first.token, requestid)).json().stages[0].signatures).toEqual([]);
    });

    it('stage 1 approved: stage 2 opens, its members (not the requester) are mailed, stage_approved event', async () => {
      mailer.clear();
      clock.advance(60_000);
      const res = await sign(first.token, requestid, { decision: 'approve', password: PASSWORD });
      expect(res.statusCode).toBe(200);
      // The token, the request's rows (eligibility); the attempt counted in its own transaction (BEGIN, the signer's
      // row locked, standing, attempt, COMMIT); the password hash; the attempt ended (a transaction of its own on
      // SQLite, one statement on MariaDB); then the signing transaction: the lock, the rows and their users, the
      // signed revision, the signature (and the signer's older attempts cleared), the stage signature, three moves,
      // the answer, the next signers and their mail, the audit rows (heads locked, rows, heads saved; an upsert first
      // on MariaDB), the cached answers' tokens, the events, BEGIN and COMMIT.
      process.stdout.write(`POST /approvals/request/sign SQL statements: ${sqlCount(res)}\n`);
      expect(sqlCount(res)).toBeLessThanOrEqual(31);
      const body = res.json<RequestBody>();
      expect(body.status).toBe('pending');
      expect(body.current_stage).toBe(2);
      expect(body.eligible).toBe(false);
      expect(res.json().stages[0]).toEqual({
        orderby: 1,
        status: 'approved',
        init_date: NOW / 1000,
        end_date: NOW / 1000 + 60,
        user: await light(first.user.userid),
        team: null,
        required_signatures: 1,
        signatures: [
          {
            userid: first.user.userid,
            printed_name: first.user.username,
            signed_at: NOW / 1000 + 60,
            meaning: 'approval',
            note: '',
            decision: 'approve',
          },
        ],
      });
      expect(res.json().stages[1]).toMatchObject({ status: 'pending', init_date: NOW / 1000 + 60 });
      await sendMail();
      expect(mailer.messages.map((m) => m.to).sort()).toEqual([second.user.email, third.user.email].sort());
      expect((await outbox(t, 'approval_request', requestid)).map((e) => e.name)).toEqual([
        'approval_request.submitted',
        'approval_request.signed',
        'approval_request.stage_approved',
      ]);
      // The answer is what the signer reads afterwards; the event carries it without the caller's `eligible`.
      expect(body).toEqual((await get(first.token, requestid)).json());
      const signed = (await outbox(t, 'approval_request', requestid)).find((e) => e.name === 'approval_request.signed');
      expect(signed?.payload).toEqual({ ...body, eligible: false });
      expect((await get(second.token, requestid)).json().eligible).toBe(true);
      const again = await sign(first.token, requestid, { decision: 'approve', password: PASSWORD });
      expect(again.json()).toEqual({ error: true, message: 'Not eligible to sign' });
    });

    it('a team stage needs 2 distinct members; the last signature approves the request and releases the page', async () => {
      const one = await sign(second.token, requestid, { decision: 'approve', password: PASSWORD });
      expect(one.json<RequestBody>()).toMatchObject({ status: 'pending', current_stage: 2, eligible: false });
      const twice = await sign(second.token, requestid, { decision: 'approve', password: PASSWORD });
      expect(twice.json()).toEqual({ error: true, message: 'Not eligible to sign' });
      mailer.clear();
      const last = await sign(third.token, requestid, {
        decision: 'approve',
        password: PASSWORD,
        note: 'Checked torque values',
      });
      expect(last.statusCode).toBe(200);
      const body = last.json<RequestBody>();
      expect(body).toMatchObject({ status: 'approved', current_stage: null, eligible: false });
      expect(body.release).toMatchObject({ status: 'released', version: '1.0' });
      expect(body.stages[1].signatures.map((s) => [s.userid, s.decision])).toEqual([
        [second.user.userid, 'approve'],
        [third.user.userid, 'approve'],
      ]);
      await sendMail();
      expect(mailer.to(author.user.email).map((m) => m.subject)).toEqual([
        'Approval request approved: Torque the pump',
      ]);
      expect((await outbox(t, 'approval_request', requestid)).map((e) => e.name).slice(-2)).toEqual([
        'approval_request.signed',
        'approval_request.approved',
      ]);
      expect((await outbox(t, 'release', releaseid)).map((e) => e.name)).toContain('release.released');
      const live = await t.app.get(ReleaseDirectory).liveOne('WIKI', wikiid);
      expect(live).toEqual({ releaseid, revisionid: body.release.revisionid, version: '1.0' });
      // The page's readers see the released revision; its editors the working copy after a new edit.
      const page = `${API}/wikis/WIKI/Torque_the_pump`;
      const head = (await t.as(author.token, { method: 'GET', url: page })).json<{ revisionid: number }>();
      const edited = await t.as(author.token, {
        method: 'PATCH',
        url: `${page}?revisionid=${head.revisionid}`,
        payload: { contents: 'Unreleased draft.' },
      });
      expect(edited.statusCode).toBe(200);
      const forReader = (await t.as(outsider.token, { method: 'GET', url: page })).json<WikiView>();
      expect([forReader.revisionid, forReader.contents_raw]).toEqual([
        body.release.revisionid,
        'Steps of Torque the pump.',
      ]);
      const forEditor = (await t.as(author.token, { method: 'GET', url: page })).json<WikiView>();
      expect(forEditor.contents_raw).toBe('Unreleased draft.');
      expect(await auditActions(t, 'approval_request', requestid)).toEqual([
        'approval_request.create',
        'approval_request.approve',
        'approval_request.approve',
        'approval_request.approve',
      ]);
    });

    it('A10 and A11 on a closed request: 409 with the request, before eligibility', async () => {
      const current = (await get(outsider.token === '' ? '' : admin.token, requestid)).json();
      const res = await sign(second.token, requestid, { decision: 'approve', password: PASSWORD });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ ...current, eligible: false });
      const token = await t.as(second.token, {
        method: 'POST',
        url: `${API}/approvals/request/sign/${requestid}/token`,
        payload: {},
      });
      expect(token.statusCode).toBe(409);
    });

    it('record_hash ties each signature to the released revision: changing that content is detectable', async () => {
      const rows = await t.dataSource.query<{ record_hash: string }[]>(
        "SELECT record_hash FROM signatures WHERE subject_type = 'approval_request' AND subject_id = ?",
        [String(requestid)],
      );
      const body = (await get(admin.token, requestid)).json<{ release: { revisionid: number } }>();
      const revision = await t.app.get(DocumentRegistry).of('WIKI').revision(wikiid, body.release.revisionid);
      const hash = createHash('sha256')
        .update(canonicalJson(revision?.content ?? null))
        .digest('hex');
      expect(rows.map((r) => r.record_hash)).toEqual([hash, hash, hash]);
      const tampered = createHash('sha256')
        .update(canonicalJson({ ...(revision?.content as object), contents_raw: 'changed' }))
        .digest('hex');
      expect(tampered).not.toBe(hash);
    });
  });

  describe('rejection with a mailed sign code, lockout, cancellation', () => {
    it('A11 mails a code (never in the answer); A10 rejects with it and a note; the release is rejected; the requester mailed', async () => {
      const wikiid = await newWiki('Replace the seal');
      await assign(wikiid);
      const { approval_requestid: id, releaseid } = await release(wikiid);
      mailer.clear();
      const unauth = await t.inject({ method: 'POST', url: `${API}/approvals/request/sign/${id}/token`, payload: {} });
      expect(unauth.statusCode).toBe(401);
      const notEligible = await t.as(second.token, {
        method: 'POST',
        url: `${API}/approvals/request/sign/${id}/token`,
        payload: {},
      });
      expect(notEligible.json()).toEqual({ error: true, message: 'Not eligible to sign' });
      const gone = await t.as(outsider.token, {
        method: 'POST',
        url: `${API}/approvals/request/sign/${id}/token`,
        payload: {},
      });
      expect(gone.statusCode).toBe(404);
      const res = await t.as(first.token, {
        method: 'POST',
        url: `${API}/approvals/request/sign/${id}/token`,
        payload: {},
      });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ delivery: 'email', expires_date: Math.floor(clock.now() / 1000) + 600 });
      await sendMail();
      const mail = mailer.to(first.user.email).find((m) => m.subject.startsWith('Your sign code'))!;
      expect(res.body).not.toContain(mail.subject.slice(-6));
      const code = /is (\d{6})/.exec(mail.text)![1];
      const wrong = await sign(first.token, id, {
        decision: 'reject',
        sign_token: code === '000000' ? '000001' : '000000',
        note: 'no',
      });
      expect(wrong.json()).toEqual({ error: true, message: 'Signature authentication failed' });
      mailer.clear();
      const rejected = await sign(first.token, id, {
        decision: 'reject',
        sign_token: code,
        note: 'Wrong torque table',
      });
      expect(rejected.statusCode).toBe(200);
      expect(rejected.json<RequestBody>()).toMatchObject({ status: 'rejected', current_stage: null });
      expect(rejected.json().stages.map((s: { status: string }) => s.status)).toEqual(['rejected', 'waiting']);
      expect(rejected.json().stages[0].signatures[0]).toMatchObject({
        meaning: 'rejection',
        note: 'Wrong torque table',
        decision: 'reject',
      });
      expect(rejected.json().release.status).toBe('rejected');
      await sendMail();
      expect(mailer.to(author.user.email).map((m) => m.text)).toEqual([
        `Your approval request ${id} for "Replace the seal" was rejected.\nNote: Wrong torque table`,
      ]);
      expect((await outbox(t, 'approval_request', id)).map((e) => e.name)).toEqual([
        'approval_request.submitted',
        'approval_request.signed',
        'approval_request.rejected',
      ]);
      expect((await outbox(t, 'release', releaseid)).map((e) => e.name)).toContain('release.rejected');
    });

    it('a 4th code within 15 minutes is 429', async () => {
      const wikiid = await newWiki('Codes');
      await assign(wikiid);
      const { approval_requestid: id } = await release(wikiid);
      const ask = () =>
        t.as(first.token, { method: 'POST', url: `${API}/approvals/request/sign/${id}/token`, payload: {} });
      for (let i = 0; i < 3; i += 1) expect((await ask()).statusCode).toBe(202);
      const fourth = await ask();
      expect(fourth.statusCode).toBe(429);
      expect(fourth.headers['retry-after']).toBeDefined();
    });

    it('5 wrong passwords: the 5th answers 403, then 429 with Retry-After even with the right one', async () => {
      const wikiid = await newWiki('Lockout');
      await assign(wikiid);
      const { approval_requestid: id } = await release(wikiid);
      // The signer's recent successes count a few seconds against bursts (the clock is frozen): let them pass.
      clock.advance(10_000);
      for (let i = 0; i < 5; i += 1) {
        expect((await sign(first.token, id, { decision: 'approve', password: 'bad' })).statusCode).toBe(403);
      }
      const locked = await sign(first.token, id, { decision: 'approve', password: PASSWORD });
      expect(locked.statusCode).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      const code = await t.as(first.token, {
        method: 'POST',
        url: `${API}/approvals/request/sign/${id}/token`,
        payload: {},
      });
      expect(code.statusCode).toBe(429);
      expect(Number(code.headers['retry-after'])).toBeGreaterThan(0);
      clock.advance(15 * 60_000 + 1000);
      expect((await sign(first.token, id, { decision: 'approve', password: PASSWORD })).statusCode).toBe(200);
    });

    it('deleting the pending release cancels the request and skips the open stage', async () => {
      const wikiid = await newWiki('Cancelled');
      await assign(wikiid);
      const { approval_requestid: id, releaseid } = await release(wikiid);
      const del = await t.as(author.token, { method: 'DELETE', url: `${API}/wikis/releases/${releaseid}` });
      expect(del.statusCode).toBe(204);
      const body = (await get(admin.token, id)).json<RequestBody>();
      expect(body).toMatchObject({ status: 'cancelled', current_stage: null });
      expect(body.stages.map((s) => s.status)).toEqual(['skipped', 'waiting']);
      expect(body.release.status).toBe('cancelled');
      expect((await outbox(t, 'approval_request', id)).map((e) => e.name)).toEqual([
        'approval_request.submitted',
        'approval_request.cancelled',
      ]);
      expect(await auditActions(t, 'approval_request', id)).toEqual([
        'approval_request.create',
        'approval_request.cancel',
      ]);
    });
  });

  describe('A8 lists', () => {
    it('401; 403 for `all` without Admin; 422 for bad filters', async () => {
      expect((await t.inject({ method: 'GET', url: `${API}/approvals/requests` })).statusCode).toBe(401);
      const all = await t.as(first.token, { method: 'GET', url: `${API}/approvals/requests?eligibility=all` });
      expect(all.statusCode).toBe(403);
      expect(all.json()).toEqual({
        error: true,
        message: 'Only an Admin may list all approval requests',
        requiredPrivileges: ['Admin'],
      });
      for (const q of ['eligibility=x', 'status=open', 'doctype=page', 'docid=0', 'limit=0', 'order=up']) {
        expect({
          q,
          status: (await t.as(first.token, { method: 'GET', url: `${API}/approvals/requests?${q}` })).statusCode,
        }).toEqual({ q, status: 422 });
      }
    });

    it('mine, eligible, all, filters; the same bodies as A9', async () => {
      const admins = (
        await t.as(admin.token, { method: 'GET', url: `${API}/approvals/requests?eligibility=all&limit=200` })
      ).json<RequestBody[]>();
      expect(admins.length).toBe(5);
      const mine = (await t.as(outsider.token, { method: 'GET', url: `${API}/approvals/requests` })).json();
      expect(mine).toEqual([]);
      const firsts = (await t.as(first.token, { method: 'GET', url: `${API}/approvals/requests` })).json<
        RequestBody[]
      >();
      expect(firsts.map((r) => r.approval_requestid)).toEqual(admins.map((r) => r.approval_requestid));
      for (const body of firsts) expect(body).toEqual((await get(first.token, body.approval_requestid)).json());
      const eligible = (
        await t.as(first.token, { method: 'GET', url: `${API}/approvals/requests?eligibility=eligible` })
      ).json<RequestBody[]>();
      expect(eligible.map((r) => r.approval_requestid)).toEqual(
        firsts.filter((r) => r.eligible).map((r) => r.approval_requestid),
      );
      expect(eligible.length).toBe(1);
      const pending = (
        await t.as(admin.token, {
          method: 'GET',
          url: `${API}/approvals/requests?eligibility=all&status=pending&order=desc`,
        })
      ).json<RequestBody[]>();
      const pendingIds = admins.filter((r) => r.status === 'pending').map((r) => r.approval_requestid);
      expect(pendingIds.length).toBe(2);
      expect(pending.map((r) => r.approval_requestid)).toEqual(pendingIds.reverse());
      const docid = (admins[0] as unknown as { docid: number }).docid;
      const wiki = (
        await t.as(author.token, { method: 'GET', url: `${API}/approvals/requests?doctype=wiki&docid=${docid}` })
      ).json<RequestBody[]>();
      expect(
        (
          await t.as(author.token, { method: 'GET', url: `${API}/approvals/requests?doctype=guide&docid=${docid}` })
        ).json(),
      ).toEqual([]);
      expect(wiki.map((r) => r.approval_requestid)).toEqual([admins[0].approval_requestid]);
      const page = (
        await t.as(admin.token, { method: 'GET', url: `${API}/approvals/requests?eligibility=all&offset=1&limit=2` })
      ).json<RequestBody[]>();
      expect(page).toEqual(admins.slice(1, 3).map((r) => ({ ...r })));
    });

    it('answers in at most 4 SQL statements whatever the page size', async () => {
      for (let i = 0; i < 6; i += 1) {
        const wikiid = await newWiki(`Bulk ${i}`);
        await assign(wikiid);
        await release(wikiid);
      }
      await t.as(first.token, { method: 'GET', url: `${API}/approvals/requests` });
      const counts: number[] = [];
      for (const limit of [1, 5, 200]) {
        for (const eligibility of ['mine', 'eligible']) {
          const res = await t.as(first.token, {
            method: 'GET',
            url: `${API}/approvals/requests?eligibility=${eligibility}&limit=${limit}`,
          });
          expect(res.statusCode).toBe(200);
          expect(res.json<unknown[]>().length).toBe(Math.min(limit, eligibility === 'mine' ? 11 : 7));
          counts.push(sqlCount(res));
        }
      }
      process.stdout.write(`GET /approvals/requests SQL statements (token included): ${counts.join(', ')}\n`);
      expect(Math.max(...counts)).toBeLessThanOrEqual(4);
      expect(Math.min(...counts)).toBeGreaterThan(0);
    });
  });

  describe('concurrency', () => {
    it('two eligible signers complete the last required signature at once: approved once, one release live, one event', async () => {
      const a = await createUser(t, { password: PASSWORD });
      const b = await createUser(t, { password: PASSWORD });
      const pair = await createTeam(t, 'Pair', [a.user.userid, b.user.userid]);
      const { approval_processid } = await newProcess('Any one of two', [{ teamid: pair, required_signatures: 1 }]);
      const wikiid = await newWiki('Race');
      await assign(wikiid, approval_processid);
      const { approval_requestid: id, releaseid } = await release(wikiid);
      const results = await Promise.all([
        sign(a.token, id, { decision: 'approve', password: PASSWORD }),
        sign(b.token, id, { decision: 'approve', password: PASSWORD }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const body = (await get(admin.token, id)).json<RequestBody>();
      expect(body.status).toBe('approved');
      expect(body.stages[0].signatures.length).toBe(1);
      const events = (await outbox(t, 'approval_request', id)).map((e) => e.name);
      expect(events.filter((n) => n === 'approval_request.approved')).toEqual(['approval_request.approved']);
      expect((await outbox(t, 'release', releaseid)).filter((e) => e.name === 'release.released').length).toBe(1);
      const [{ n }] = await t.dataSource.query<{ n: number }[]>(
        "SELECT COUNT(*) AS n FROM releases WHERE doctype = 'WIKI' AND docid = ? AND status = 'released'",
        [wikiid],
      );
      expect(Number(n)).toBe(1);
    });
  });

  it('leaves an audit log whose every chain verifies', async () => {
    const result = await t.app.get(AuditVerifier).verify();
    expect(result).toMatchObject({ ok: true });
    expect(result.rows).toBeGreaterThan(50);
  });
});
