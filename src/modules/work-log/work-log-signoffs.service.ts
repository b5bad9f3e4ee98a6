import { createHash } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiException, notFound, RevisionConflictException, unprocessable } from '../../common/http/api-errors';
import { canonicalJson } from '../../common/security/canonical-json';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { MailQueue } from '../../platform/mail/mail-queue';
import { SignatureService, toSignatureView } from '../../platform/signatures/signature.service';
import { PolicyService } from '../access/policy.service';
import { StepFormsService } from '../step-forms/step-forms.service';
import { TeamsService } from '../teams/teams.service';
import { UsersService } from '../users/users.service';
import type { SignoffListQueryDto } from './dto/work-log-query.dto';
import type { SignSignoffDto } from './dto/work-log-body.dto';
import type { SignoffDto, SignoffListDto } from './dto/work-log-response.dto';
import type { WorkLogEntryEntity } from './entities/work-log-entry.entity';
import type { WorkLogSignoffEntity } from './entities/work-log-signoff.entity';
import { toSignoff } from './work-log.mapper';
import { WorkLogRepository } from './work-log.repository';
import { WorkLogService } from './work-log.service';
import { transition, type EntryStatus } from './work-log-entry.state-machine';
import { WorkLogSignoffDecided, WorkLogSignoffRequested } from './work-log.events';

/** Supervisor sign-offs of steps (an extension of the API, docs/enterprise/work-log.md): requested by the operator, signed by a team member. */
@Injectable()
export class WorkLogSignoffsService {
  constructor(
    private readonly entries: WorkLogRepository,
    private readonly workLog: WorkLogService,
    private readonly forms: StepFormsService,
    private readonly teams: TeamsService,
    private readonly users: UsersService,
    private readonly policy: PolicyService,
    private readonly signatures: SignatureService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly mail: MailQueue,
    private readonly clock: Clock,
  ) {}

  /** Signoff bodies for rows, with their entries, teams, users and signatures loaded in batches. */
  private async views(rows: WorkLogSignoffEntity[]): Promise<SignoffDto[]> {
    if (!rows.length) return [];
    const entries = new Map(
      (await this.entries.entriesByIds([...new Set(rows.map((r) => r.entryid))])).map((e) => [e.entryid, e]),
    );
    const teamids = [...new Set(rows.map((r) => r.teamid))];
    const [teamNames, users, signatures] = await Promise.all([
      Promise.all(teamids.map(async (id) => [id, (await this.teams.teamNameOf(id)) ?? ''] as const)),
      this.users.lightUsers(rows.flatMap((r) => [r.requestedBy, ...(r.signerUserid ? [r.signerUserid] : [])])),
      this.signatures.byIds(rows.flatMap((r) => (r.signatureid ? [r.signatureid] : []))),
    ]);
    const names = new Map(teamNames);
    const byId = new Map(signatures.map((s) => [s.signatureid, toSignatureView(s)]));
    return rows
      .filter((r) => entries.has(r.entryid))
      .map((r) =>
        toSignoff(
          r,
          entries.get(r.entryid)!,
          names.get(r.teamid) ?? '',
          users,
          r.signatureid ? (byId.get(r.signatureid) ?? null) : null,
        ),
      );
  }

  private async view(row: WorkLogSignoffEntity): Promise<SignoffDto> {
    return (await this.views([row]))[0];
  }

  async request(entryid: number, stepid: number, caller: AuthenticatedUser): Promise<SignoffDto> {
    const entry = await this.workLog.visible(entryid, caller);
    this.workLog.assertOwner(entry, caller);
    if (!(await this.forms.stepIds(entry.guideid)).includes(stepid)) throw notFound('Step');
    if (!transition(entry.status as EntryStatus, 'request_signoff')) throw await this.workLog.conflict(entryid);
    const pending = await this.entries.pendingSignoff(entryid, stepid);
    if (pending) throw new RevisionConflictException(await this.view(pending));
    const form = (await this.forms.formsAsOf(entry.guideid, entry.maxFormRevisionid)).find((f) => f.stepid === stepid);
    if (!form || form.signoff_teamid === null) throw unprocessable('This step’s form names no sign-off team', 'stepid');
    const teamid = form.signoff_teamid;
    const members = await this.teams.memberIds(teamid);
    const emails = await this.users.emailsOf(members.filter((id) => id !== entry.userid));
    return this.transactions.run(async (tx) => {
      const signoffid = await this.entries.insertSignoff({
        entryid,
        stepid,
        teamid,
        status: 'pending',
        requestedBy: caller.userid,
        requestedDate: this.clock.nowSeconds(),
        signerUserid: null,
        signatureid: null,
        date: null,
      });
      const body = await this.view((await this.entries.findSignoff(signoffid))!);
      await this.audit.record({
        action: 'work_log_signoff.request',
        entity: ['work_log_signoff', signoffid],
        after: body,
      });
      tx.publish(WorkLogSignoffRequested(body));
      for (const to of emails.values()) {
        await this.mail.enqueue({
          to,
          subject: `Sign-off requested: work order ${entry.workorderid}`,
          text: `${caller.username} asks for a sign-off of step ${stepid} of work-log entry ${entryid} (work order ${entry.workorderid}). Sign-off id: ${signoffid}.`,
        });
      }
      return body;
    });
  }

  /** Check order: 404 → 403 (not in the team, or the operator) → 409 (not pending) → signature (403/429). */
  async sign(signoffid: number, body: SignSignoffDto, caller: AuthenticatedUser): Promise<SignoffDto> {
    const signoff = await this.entries.findSignoff(signoffid);
    const entry = signoff ? await this.entries.findEntry(signoff.entryid) : null;
    if (!signoff || !entry) throw notFound('Signoff');
    if (caller.userid === entry.userid || !(await this.teams.isMember(signoff.teamid, caller.userid))) {
      throw new ApiException(HttpStatus.FORBIDDEN, 'Not eligible to sign');
    }
    if (signoff.status !== 'pending') throw new RevisionConflictException(await this.view(signoff));
    const proof = await this.signatures.verify(
      caller,
      { password: body.password },
      { subjectType: 'work_log_signoff', subjectId: signoffid },
    );
    const approve = body.decision === 'approve';
    const result = await this.transactions.run(async (tx) => {
      const now = this.clock.nowSeconds();
      const signature = await this.signatures.record(proof, {
        type: 'work_log_signoff',
        id: signoffid,
        meaning: approve ? 'verification' : 'rejection',
        note: body.note,
        recordHash: await this.recordHash(signoff, entry),
      });
      const changes = {
        status: approve ? 'approved' : 'rejected',
        signerUserid: caller.userid,
        signatureid: signature.signatureid,
        date: now,
      };
      if (!(await this.entries.decideSignoff(signoffid, changes))) {
        throw new RevisionConflictException(await this.view((await this.entries.findSignoff(signoffid))!));
      }
      const view = await this.view({ ...signoff, ...changes });
      await this.audit.record({
        action: `work_log_signoff.${approve ? 'approve' : 'reject'}`,
        entity: ['work_log_signoff', signoffid],
        before: { status: 'pending' },
        after: view,
        reason: body.note ?? null,
      });
      tx.publish(WorkLogSignoffDecided(view));
      const requester = (await this.users.emailsOf([signoff.requestedBy])).get(signoff.requestedBy);
      if (requester) {
        await this.mail.enqueue({
          to: requester,
          subject: `Sign-off ${approve ? 'approved' : 'rejected'}: work order ${entry.workorderid}`,
          text: `${caller.username} ${approve ? 'approved' : 'rejected'} the sign-off of step ${signoff.stepid} of entry ${entry.entryid}.${body.note ? ` Note: ${body.note}` : ''}`,
        });
      }
      return view;
    });
    return result;
  }

  /** What was signed: the step, the entry and the values recorded so far. */
  private async recordHash(signoff: WorkLogSignoffEntity, entry: WorkLogEntryEntity): Promise<string> {
    const children = (await this.entries.children([entry.entryid])).get(entry.entryid)!;
    const content = {
      signoffid: signoff.signoffid,
      entryid: entry.entryid,
      stepid: signoff.stepid,
      guide_revisionid: entry.guideRevisionid,
      values: children.data.filter((d) => d.stepid === signoff.stepid).map((d) => [d.fieldRevisionid, d.value, d.date]),
    };
    return createHash('sha256').update(canonicalJson(content)).digest('hex');
  }

  async list(query: SignoffListQueryDto, caller: AuthenticatedUser): Promise<SignoffListDto> {
    const visibleTo = this.policy.canModerate(caller)
      ? undefined
      : { userid: caller.userid, teamids: await this.teams.teamIdsOf(caller.userid) };
    const rows = await this.entries.listSignoffs(query.status, query.offset, query.limit, visibleTo);
    return { results: await this.views(rows) };
  }
}
