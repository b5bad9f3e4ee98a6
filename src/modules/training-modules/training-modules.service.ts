import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { isAdmin } from '../../common/auth/privileges';
import { notFound, RevisionConflictException, unprocessable } from '../../common/http/api-errors';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { DocumentRegistry } from '../../platform/documents/document-registry';
import { CoursesService } from '../courses/courses.service';
import type { CreateTrainingDraftDto, UpdateTrainingDraftDto } from './dto/training-body.dto';
import type { TrainingModuleDto, TrainingUsageDto } from './dto/training-response.dto';
import type { TrainingModuleEntity } from './entities/training-module.entity';
import { REGISTRATION_STATUSES } from './entities/training-registration.entity';
import type { TrainingVersionEntity } from './entities/training-version.entity';
import { launchTarget } from './launch-target';
import { TrainingModulePublished } from './training-module.events';
import { toModuleDto } from './training-module.mapper';
import { TrainingModulesRepository } from './training-modules.repository';

/**
 * Modules and their versions (docs/enterprise/training-modules.md, T1-T3, T6, T7): drafts, publishing and rollback,
 * draft settings and usage. Every change runs in one transaction with its audit row; publishing also writes
 * `training_module.published` to the outbox.
 */
@Injectable()
export class TrainingModulesService {
  constructor(
    private readonly repository: TrainingModulesRepository,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly courses: CoursesService,
    private readonly documents: DocumentRegistry,
  ) {}

  async requireModule(moduleid: number): Promise<TrainingModuleEntity> {
    const module = await this.repository.findModule(moduleid);
    if (!module) throw notFound('Module');
    return module;
  }

  /** A module as `caller` sees it (the draft for Admins only). */
  async one(moduleid: number, caller: AuthenticatedUser | undefined): Promise<TrainingModuleDto> {
    const module = await this.requireModule(moduleid);
    const versions = await this.repository.versions([module.currentVersionid, module.draftVersionid]);
    return toModuleDto(module, versions, isAdmin(caller));
  }

  /** T1. */
  async current(
    query: { search?: string; order: 'ASC' | 'DESC'; offset: number; limit: number },
    caller: AuthenticatedUser | undefined,
  ): Promise<TrainingModuleDto[]> {
    const modules = await this.repository.currentModules(query);
    const admin = isAdmin(caller);
    const versions = await this.repository.versions(
      modules.flatMap((m) => [m.currentVersionid, admin ? m.draftVersionid : null]),
    );
    return modules.map((m) => toModuleDto(m, versions, admin));
  }

  /** T2: a new module with an empty draft, or a new draft of an existing module. */
  async createDraft(body: CreateTrainingDraftDto, caller: AuthenticatedUser): Promise<TrainingModuleDto> {
    const moduleid = await this.transactions.run(async () => {
      const now = this.clock.nowSeconds();
      let id = body.moduleid;
      if (id !== undefined) {
        const existing = await this.requireModule(id);
        if (existing.draftVersionid !== null) throw new RevisionConflictException(await this.one(id, caller));
      } else {
        id = await this.repository.insertModule({
          title: body.title,
          description: body.description ?? '',
          currentVersionid: null,
          draftVersionid: null,
          createdDate: now,
          modifiedDate: now,
        });
      }
      const versionid = await this.repository.insertVersion(emptyDraft(id, body, now));
      if (!(await this.repository.claimDraft(id, versionid, now))) {
        throw new RevisionConflictException(await this.one(id, caller));
      }
      await this.audit.record({
        action: body.moduleid === undefined ? 'training_module.create' : 'training_module.draft_create',
        entity: ['training_module', id],
        after: await this.one(id, caller),
      });
      return id;
    });
    return this.one(moduleid, caller);
  }

  /** T7: the draft's title, description, mastery score and launch method. */
  async updateDraft(
    moduleid: number,
    body: UpdateTrainingDraftDto,
    caller: AuthenticatedUser,
  ): Promise<TrainingModuleDto> {
    const fields = ['title', 'description', 'mastery_score', 'launch_method'] as const;
    if (!fields.some((field) => body[field] !== undefined)) {
      throw unprocessable('Send at least one of title, description, mastery_score, launch_method');
    }
    await this.transactions.run(async () => {
      const module = await this.requireModule(moduleid);
      const before = await this.one(moduleid, caller);
      if (module.draftVersionid === null) throw new RevisionConflictException(before);
      const ok = await this.repository.updateVersion(module.draftVersionid, 'draft', {
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.mastery_score !== undefined ? { masteryScore: body.mastery_score } : {}),
        ...(body.launch_method !== undefined ? { launchMethod: body.launch_method } : {}),
      });
      if (!ok) throw new RevisionConflictException(before);
      await this.repository.updateModule(moduleid, { modifiedDate: this.clock.nowSeconds() });
      await this.audit.record({
        action: 'training_module.draft_update',
        entity: ['training_module', moduleid],
        before,
        after: await this.one(moduleid, caller),
      });
    });
    return this.one(moduleid, caller);
  }

  /** T6: publishes the draft (default) or rolls back to a superseded version. */
  async publish(
    moduleid: number,
    versionid: number | undefined,
    caller: AuthenticatedUser,
  ): Promise<TrainingModuleDto> {
    await this.transactions.run(async (tx) => {
      const module = await this.requireModule(moduleid);
      const before = await this.one(moduleid, caller);
      const targetId = versionid ?? module.draftVersionid;
      // No draft; a version that is neither the draft nor superseded; no completed package; or a launch path
      // that is not content (stored before such packages were refused): 409 with the module.
      if (targetId === null) throw new RevisionConflictException(before);
      const target = await this.repository.findVersion(targetId);
      if (!target || target.moduleid !== moduleid) throw notFound('Version');
      const isDraft = target.status === 'draft' && module.draftVersionid === target.versionid;
      if (
        (!isDraft && target.status !== 'superseded') ||
        target.packageSha256 === null ||
        !launchTarget(target.standard, target.launchPath ?? '')
      ) {
        throw new RevisionConflictException(before);
      }
      const now = this.clock.nowSeconds();
      if (module.currentVersionid !== null) {
        await this.repository.updateVersion(module.currentVersionid, 'current', { status: 'superseded' });
      }
      const moved = await this.repository.updateVersion(target.versionid, target.status, {
        status: 'current',
        publishedDate: now,
      });
      const pointers = await this.repository.publishPointers(
        moduleid,
        { current: module.currentVersionid, draft: module.draftVersionid },
        {
          current: target.versionid,
          draft: isDraft ? null : module.draftVersionid,
          title: target.title,
          ...(target.description !== null ? { description: target.description } : {}),
        },
        now,
      );
      if (!moved || !pointers) throw new RevisionConflictException(before);
      const after = await this.one(moduleid, caller);
      await this.audit.record({
        action: isDraft ? 'training_module.publish' : 'training_module.rollback',
        entity: ['training_module', moduleid],
        before,
        after,
      });
      tx.publish(TrainingModulePublished(after));
    });
    return this.one(moduleid, caller);
  }

  /** T3: course stages that use the module, and its registrations by status (previews not counted). */
  async usage(moduleid: number): Promise<TrainingUsageDto> {
    await this.requireModule(moduleid);
    const stages = await this.courses.stagesForModule(moduleid);
    const pages = await this.documents.of('WIKI').find([...new Set(stages.map((s) => s.courseWikiid))]);
    const counts = await this.repository.registrationCounts(moduleid);
    const registrations = Object.fromEntries(REGISTRATION_STATUSES.map((s) => [s, counts.get(s) ?? 0])) as Record<
      (typeof REGISTRATION_STATUSES)[number],
      number
    >;
    return {
      moduleid,
      courses: stages
        .filter((s) => pages.has(s.courseWikiid))
        .map((s) => ({
          course_wikiid: s.courseWikiid,
          course_title: pages.get(s.courseWikiid)!.title,
          course_stageid: s.courseStageid,
        })),
      registrations: { total: [...counts.values()].reduce((a, b) => a + b, 0), ...registrations },
    };
  }
}

function emptyDraft(
  moduleid: number,
  body: CreateTrainingDraftDto,
  now: number,
): Omit<TrainingVersionEntity, 'versionid'> {
  return {
    moduleid,
    status: 'draft',
    standard: null,
    title: body.title,
    description: body.description ?? null,
    launchPath: null,
    launchMethod: 'iframe',
    masteryScore: null,
    moveOn: null,
    scoCount: 0,
    fileCount: 0,
    packageBytes: 0,
    packageSha256: null,
    createdDate: now,
    publishedDate: null,
  };
}
