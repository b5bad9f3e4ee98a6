import { Injectable } from '@nestjs/common';
import { notFound, ValidationFailedException, type FieldError } from '../../common/http/api-errors';
import { StaleRevisionError } from '../../common/revisions/stale-revision.error';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { UsersService } from '../users/users.service';
import { ApprovalProcessCreated, ApprovalProcessUpdated } from './approval.events';
import { toApprovalProcess } from './approval-process.mapper';
import { ApprovalProcessesRepository, type NewStage } from './approval-processes.repository';
import type { ApprovalProcessDto } from './dto/process-response.dto';
import type { CreateProcessDto, ListProcessesQueryDto, StageInputDto, UpdateProcessDto } from './dto/process-body.dto';
import type { ApprovalProcessEntity } from './entities/approval-process.entity';

/** Approval processes (A1-A5): revisions of name and stages, the site default. */
@Injectable()
export class ApprovalProcessesService {
  constructor(
    private readonly processes: ApprovalProcessesRepository,
    private readonly users: UsersService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  async list(query: ListProcessesQueryDto): Promise<ApprovalProcessDto[]> {
    const rows = await this.processes.listProcesses(query.offset, query.limit, query.order);
    return this.views(rows.map((process) => ({ process, revisionid: process.currentRevisionid })));
  }

  async search(phrase: string, limit: number): Promise<ApprovalProcessDto[]> {
    if ([...phrase].length > 100) {
      throw new ValidationFailedException([
        { message: 'search_phrase must be 1 to 100 characters', field: 'search_phrase' },
      ]);
    }
    const rows = await this.processes.searchProcesses(phrase, limit);
    return this.views(rows.map((process) => ({ process, revisionid: process.currentRevisionid })));
  }

  /** A3: the current revision, or `revisionid` when it is one of this process's (404 otherwise). */
  async get(approvalProcessid: number, revisionid?: number): Promise<ApprovalProcessDto> {
    const process = await this.processes.findProcess(approvalProcessid);
    if (!process) throw notFound('Approval process');
    if (revisionid !== undefined) {
      const revision = await this.processes.findRevision(revisionid);
      if (!revision || revision.approvalProcessid !== approvalProcessid) throw notFound('Approval process revision');
    }
    return (await this.views([{ process, revisionid: revisionid ?? process.currentRevisionid }]))[0];
  }

  async create(body: CreateProcessDto): Promise<ApprovalProcessDto> {
    return this.transactions.run(async (tx) => {
      const stages = await this.checkStages(body.stages);
      const now = this.clock.nowSeconds();
      const approvalProcessid = await this.processes.insertProcess({
        currentRevisionid: 0,
        name: body.name,
        siteDefault: body.site_default ?? false,
        createdDate: now,
        modifiedDate: now,
      });
      const revisionid = await this.processes.insertRevision(approvalProcessid, body.name, now, stages);
      await this.processes.advance(approvalProcessid, 0, { currentRevisionid: revisionid });
      const cleared = body.site_default ? await this.processes.clearSiteDefault(approvalProcessid) : [];
      const view = await this.get(approvalProcessid);
      await this.audit.record({
        action: 'approval_process.create',
        entity: ['approval_process', approvalProcessid],
        after: { ...view, site_default_cleared: cleared },
      });
      tx.publish(ApprovalProcessCreated(view));
      return view;
    });
  }

  /**
   * A5. A changed name or stage list makes a new revision; `site_default` alone makes none. The
   * revisionid check is a conditional update on `current_revisionid`.
   */
  async update(approvalProcessid: number, revisionid: number, body: UpdateProcessDto): Promise<ApprovalProcessDto> {
    return this.transactions.run(async (tx) => {
      const process = await this.processes.findProcessForWrite(approvalProcessid);
      if (!process) throw notFound('Approval process');
      if (revisionid !== process.currentRevisionid) throw this.stale(approvalProcessid);
      const before = await this.get(approvalProcessid);
      const stages = body.stages ? await this.checkStages(body.stages) : undefined;
      const name = body.name ?? before.name;
      const changesContent = name !== before.name || (stages !== undefined && !sameStages(stages, before));
      const now = this.clock.nowSeconds();
      const changes: Partial<ApprovalProcessEntity> = {};
      if (changesContent) {
        const next = await this.processes.insertRevision(approvalProcessid, name, now, stages ?? stagesOf(before));
        Object.assign(changes, { currentRevisionid: next, name });
      }
      if (body.site_default !== undefined && body.site_default !== process.siteDefault) {
        changes.siteDefault = body.site_default;
      }
      if (!Object.keys(changes).length) return before;
      changes.modifiedDate = now;
      if (!(await this.processes.advance(approvalProcessid, process.currentRevisionid, changes))) {
        throw this.stale(approvalProcessid);
      }
      const cleared = changes.siteDefault ? await this.processes.clearSiteDefault(approvalProcessid) : [];
      const after = await this.get(approvalProcessid);
      await this.audit.record({
        action: 'approval_process.update',
        entity: ['approval_process', approvalProcessid],
        before,
        after: { ...after, site_default_cleared: cleared },
      });
      tx.publish(ApprovalProcessUpdated(after));
      return after;
    });
  }

  stale(approvalProcessid: number): StaleRevisionError {
    return new StaleRevisionError(() => this.get(approvalProcessid));
  }

  /** Views of processes at given revisions: a fixed number of queries whatever their number. */
  async views(items: { process: ApprovalProcessEntity; revisionid: number }[]): Promise<ApprovalProcessDto[]> {
    if (!items.length) return [];
    const revisionids = [...new Set(items.map((i) => i.revisionid))];
    const [revisions, stages, documentCounts] = await Promise.all([
      this.processes.findRevisions(revisionids),
      this.processes.stagesOf(revisionids),
      this.processes.documentCounts(items.map((i) => i.process.approvalProcessid)),
    ]);
    const allStages = [...stages.values()].flat();
    const [users, teams] = await Promise.all([
      this.users.lightUsers(allStages.flatMap((s) => (s.userid === null ? [] : [s.userid]))),
      this.processes.teams([...new Set(allStages.flatMap((s) => (s.teamid === null ? [] : [s.teamid])))]),
    ]);
    const byId = new Map(revisions.map((r) => [r.approvalProcessRevisionid, r]));
    return items.map(({ process, revisionid }) =>
      toApprovalProcess(process, byId.get(revisionid)!, stages.get(revisionid) ?? [], { users, teams, documentCounts }),
    );
  }

  /** The 422 rules of stages that need stored data (docs/enterprise/approvals.md), every failing stage named. */
  private async checkStages(input: StageInputDto[]): Promise<NewStage[]> {
    const errors: FieldError[] = [];
    input.forEach((stage, index) => {
      if ((stage.userid === undefined) === (stage.teamid === undefined)) {
        errors.push({ message: 'A stage names exactly one of userid or teamid', field: 'stages', index });
      } else if (
        stage.userid !== undefined &&
        stage.required_signatures !== undefined &&
        stage.required_signatures !== 1
      ) {
        errors.push({ message: 'A user stage needs exactly 1 signature', field: 'stages.required_signatures', index });
      }
    });
    if (errors.length) throw new ValidationFailedException(errors);
    const userids = [...new Set(input.flatMap((s) => (s.userid === undefined ? [] : [s.userid])))];
    const teamids = [...new Set(input.flatMap((s) => (s.teamid === undefined ? [] : [s.teamid])))];
    const [users, teams] = await Promise.all([this.users.lightUsers(userids), this.processes.teams(teamids)]);
    input.forEach((stage, index) => {
      if (stage.userid !== undefined && !users.has(stage.userid)) {
        errors.push({ message: `User ${stage.userid} does not exist`, field: 'stages.userid', index });
      }
      if (stage.teamid === undefined) return;
      const team = teams.get(stage.teamid);
      if (!team) {
        errors.push({ message: `Team ${stage.teamid} does not exist`, field: 'stages.teamid', index });
      } else if ((stage.required_signatures ?? 1) > team.members) {
        errors.push({
          message: `required_signatures must be from 1 to the team's ${team.members} members`,
          field: 'stages.required_signatures',
          index,
        });
      }
    });
    if (errors.length) throw new ValidationFailedException(errors);
    return input.map((stage, index) => ({
      orderby: index + 1,
      userid: stage.userid ?? null,
      teamid: stage.teamid ?? null,
      requiredSignatures: stage.userid !== undefined ? 1 : (stage.required_signatures ?? 1),
    }));
  }
}

const stagesOf = (view: ApprovalProcessDto): NewStage[] =>
  view.stages.map((s) => ({
    orderby: s.orderby,
    userid: s.user?.userid ?? null,
    teamid: s.team?.teamid ?? null,
    requiredSignatures: s.required_signatures,
  }));

const sameStages = (stages: NewStage[], view: ApprovalProcessDto): boolean =>
  JSON.stringify(stages) === JSON.stringify(stagesOf(view));
